import Foundation

/// A type that takes more from markup than attributes: children, text, processing
/// instructions, untyped elements, factories. Every requirement has a default; the defaults
/// refuse what the type does not declare (a child for a type without a content key, an
/// instruction it does not list) with an error at the element, where MarkupKit did nothing.
///
/// ```swift
/// final class Column: AMCMarkupElement {
///     var spacing = 0.0
///     var arrangedSubviews: [View] = []
///     static var amcMarkupContentKey: String? { "arrangedSubviews" }   // children go here
///     required init() {}
/// }
/// ```
public protocol AMCMarkupElement: AMCCodable {
    /// The property child elements go to: an array (each child appended) or a single object
    /// (one child); nil (the default): the element takes no children.
    ///
    /// ```swift
    /// static var amcMarkupContentKey: String? { "subviews" }
    /// ```
    static var amcMarkupContentKey: String? { get }
    /// The property the element's text (or CDATA) sets, converted as an attribute's value is;
    /// nil (the default): text is an error.
    ///
    /// ```swift
    /// static var amcMarkupTextKey: String? { "text" }   // <Label>Hello</Label>
    /// ```
    static var amcMarkupTextKey: String? { get }
    /// Names of child elements that are no type, handed to
    /// ``amcProcessMarkupElement(_:attributes:_:)``; default none.
    ///
    /// ```swift
    /// static var amcMarkupElements: Set<String> { ["section"] }
    /// ```
    static var amcMarkupElements: Set<String> { get }
    /// Processing-instruction targets the element takes, handed to
    /// ``amcProcessMarkupInstruction(_:data:_:)``; default none.
    ///
    /// ```swift
    /// static var amcMarkupInstructions: Set<String> { ["sectionBreak", "sectionSelectionMode"] }
    /// ```
    static var amcMarkupInstructions: Set<String> { get }
    /// The instance `factory="name"` asks for; nil (the default) for a name it does not know.
    ///
    /// ```swift
    /// static func amcMarkupFactory(_ name: String) -> Self? { name == "grouped" ? Self(style: .grouped) : nil }
    /// ```
    static func amcMarkupFactory(_ name: String) -> Self?
    /// The factory names, listed when one is unknown; default none.
    ///
    /// ```swift
    /// static var amcMarkupFactoryNames: [String] { ["plain", "grouped"] }
    /// ```
    static var amcMarkupFactoryNames: [String] { get }
    /// Takes a child element's object, complete, at the child's end tag. The default appends it
    /// to the ``amcMarkupContentKey`` array (or sets that property), and throws when there is none.
    ///
    /// ```swift
    /// func amcAppendMarkupChild(_ child: any AMCCodable, _ context: AMCMarkupContext) throws {
    ///     guard let view = child as? View else { throw context.error("a \(Self.self) holds views only") }
    ///     addSubview(view)
    /// }
    /// ```
    mutating func amcAppendMarkupChild(_ child: any AMCCodable, _ context: AMCMarkupContext) throws
    /// Takes a processing instruction inside the element (`data` is nil for `<?target?>`). The
    /// default throws unless ``amcMarkupInstructions`` lists the target, and then does nothing.
    ///
    /// ```swift
    /// func amcProcessMarkupInstruction(_ target: String, data: String?, _ context: AMCMarkupContext) throws {
    ///     if target == "sectionBreak" { sections.append(Section()) }
    /// }
    /// ```
    mutating func amcProcessMarkupInstruction(_ target: String, data: String?, _ context: AMCMarkupContext) throws
    /// Takes a child element listed in ``amcMarkupElements``, with its attributes as written.
    /// The default throws unless the name is listed, and then does nothing.
    ///
    /// ```swift
    /// func amcProcessMarkupElement(_ name: String, attributes: [(name: String, value: String)],
    ///                              _ context: AMCMarkupContext) throws {
    ///     sections.append(Section(title: attributes.first { $0.name == "title" }?.value ?? ""))
    /// }
    /// ```
    mutating func amcProcessMarkupElement(
        _ name: String, attributes: [(name: String, value: String)], _ context: AMCMarkupContext) throws
    /// Called once the whole tree is built and every `id` bound, children before parents.
    ///
    /// ```swift
    /// func amcDidBuildMarkup(_ context: AMCMarkupContext) throws {
    ///     guard !rows.isEmpty else { throw context.error("a table needs a row") }
    /// }
    /// ```
    mutating func amcDidBuildMarkup(_ context: AMCMarkupContext) throws
}

extension AMCMarkupElement {
    /// No children.
    public static var amcMarkupContentKey: String? { nil }
    /// No text.
    public static var amcMarkupTextKey: String? { nil }
    /// No untyped elements.
    public static var amcMarkupElements: Set<String> { [] }
    /// No instructions.
    public static var amcMarkupInstructions: Set<String> { [] }
    /// No factories.
    public static func amcMarkupFactory(_ name: String) -> Self? { nil }
    /// No factory names.
    public static var amcMarkupFactoryNames: [String] { [] }

    /// Appends `child` to the content key's array, or sets the content key's object.
    public mutating func amcAppendMarkupChild(_ child: any AMCCodable, _ context: AMCMarkupContext) throws {
        try MarkupContent.append(child, to: &self, key: Self.amcMarkupContentKey, context: context)
    }

    /// Refuses a target ``amcMarkupInstructions`` does not list.
    public mutating func amcProcessMarkupInstruction(_ target: String, data: String?, _ context: AMCMarkupContext) throws {
        guard Self.amcMarkupInstructions.contains(target) else {
            throw context.refusal("<?\(target)?>", of: Self.self, taking: Self.amcMarkupInstructions, as: "instruction")
        }
    }

    /// Refuses a name ``amcMarkupElements`` does not list.
    public mutating func amcProcessMarkupElement(
        _ name: String, attributes: [(name: String, value: String)], _ context: AMCMarkupContext
    ) throws {
        guard Self.amcMarkupElements.contains(name) else {
            throw context.refusal("<\(name)>", of: Self.self, taking: Self.amcMarkupElements, as: "element")
        }
    }

    /// Does nothing (and notes that it is the type's hook: the builder then no longer calls it).
    public mutating func amcDidBuildMarkup(_ context: AMCMarkupContext) throws {
        MarkupContent.noteDefaultDidBuild(of: Swift.type(of: self))
    }
}

/// Where in a markup document a hook is called: the element's file, position and path, and
/// errors made there.
///
/// ```swift
/// throw context.error("a table needs a row")
/// // In Table.xml, line 3, column 5, at "/Table": a table needs a row.
/// ```
public struct AMCMarkupContext: Sendable {
    /// The file the element is in; nil for markup read without a URL.
    public let file: String?
    /// The line of the element's `<`, from 1.
    public let line: Int
    /// The column of the element's `<`, from 1.
    public let column: Int
    /// The element's path: `/Column/Row/Label[2]`.
    public var elementPath: String { place.path }
    /// Where the path leads, worked out when asked.
    let place: MarkupPlace

    /// An error at the element, saying `reason`.
    ///
    /// ```swift
    /// throw context.error("a table needs a row")
    /// ```
    public func error(_ reason: String) -> AMCError {
        error(.markupFault(reason: reason))
    }

    /// An error of `kind` at the element.
    ///
    /// ```swift
    /// throw context.error(.typeMismatch(expected: "a view", found: "a Section"))
    /// ```
    public func error(_ kind: AMCError.Kind) -> AMCError {
        AMCError(kind, keyPath: elementPath, file: file, location: .line(line, column: column))
    }

    /// The error for `what` (an instruction, an element) that `type` does not take, naming the
    /// nearest one it does.
    func refusal(_ what: String, of type: Any.Type, taking names: Set<String>, as kind: String) -> AMCError {
        let name = what.trimmingCharacters(in: CharacterSet(charactersIn: "<>?"))
        let nearest = TypePlan.nearest(to: name, among: names).map { " — did you mean \"\($0)\"?" } ?? ""
        return error("<\(AMC.unqualifiedName(of: type))> takes no \(kind) \(what)\(nearest)")
    }
}

/// What the builder's own attributes are called.
///
/// ```swift
/// var builder = AMCMarkupBuilder()
/// builder.reservedAttributes = .prefixed   // amc:id, amc:class, amc:factory; "id" sets a property
/// ```
public enum AMCMarkupReservedNames: Sendable {
    /// `id`, `class` and `factory` are the builder's (MarkupKit's meaning), and so are their
    /// `amc:` forms; an element whose type has a stored property of one of those names makes
    /// that attribute an error pointing to ``prefixed``.
    case plain
    /// Only `amc:id`, `amc:class` and `amc:factory` are the builder's; plain names set properties.
    case prefixed

    /// The builder's name `attribute` is: `amc:name` always, the plain name when ``plain``;
    /// nil for a property's.
    func builderName(of attribute: String) -> MarkupBuilderName? {
        // Most attributes are properties': told apart by their length and first letter.
        let plain: Substring
        switch (attribute.utf8.count, attribute.utf8.first) {
        case (2, UInt8(ascii: "i")), (5, UInt8(ascii: "c")), (7, UInt8(ascii: "f")):
            guard self == .plain else { return nil }
            plain = Substring(attribute)
        case (6, UInt8(ascii: "a")), (9, UInt8(ascii: "a")), (11, UInt8(ascii: "a")):
            guard attribute.utf8.starts(with: "amc:".utf8) else { return nil }
            plain = attribute.dropFirst(4)
        default:
            return nil
        }
        if plain == "id" { return .id }
        if plain == "class" { return .class }
        return plain == "factory" ? .factory : nil
    }
}

/// The attributes that are the builder's, not a property's.
enum MarkupBuilderName: String {
    case id, `class`, factory
}

/// The default content hook's work: children into the content key's property.
enum MarkupContent {
    /// Where a type's children go, worked out once per type: each element's children come one by one.
    private static let slots = TypeCache<Slot>()

    private struct Slot {
        let key: String
        /// The content key's field, when it is a settable stored property.
        let field: FieldPlan?
        /// What appends to the field in place, when it is an array.
        let appender: ChildAppender?

        init(of type: Any.Type, key: String) {
            self.key = key
            field = TypePlan.of(type).field(named: key).flatMap { $0.isWritable ? $0 : nil }
            appender = (field?.type as? any AppendableArray.Type)?.childAppender
        }
    }

    /// The types whose did-build hook is the default one, which does nothing: it has been called
    /// for one of them, and a type's hook is always the same one.
    private static let defaultDidBuilds = Locked(Set<ObjectIdentifier>())

    static func noteDefaultDidBuild(of type: Any.Type) {
        _ = defaultDidBuilds.withLock { $0.insert(ObjectIdentifier(type)) }
    }

    /// Whether the did-build hook of objects of exactly `type` is known to do nothing.
    static func didBuildDoesNothing(for type: Any.Type) -> Bool {
        defaultDidBuilds.withLock { $0.contains(ObjectIdentifier(type)) }
    }

    /// Where the default hook of objects of exactly the class `type` appends children that are
    /// objects, when it has been called for one (so it is that type's hook) and appends them to an
    /// array of a class, and `key` is the content key it was called with: the offset of that array.
    /// Nil otherwise, and always on Objective-C platforms (see ``RuntimeAccess/append(_:toObjectArrayAt:of:room:)``).
    static func objectArrayOffset(appendedToBy type: Any.Type, key: String?) -> Int? {
        #if canImport(ObjectiveC)
            return nil
        #else
            guard RuntimeAccess.shape(of: type) == .class, let slot = slots.known(for: type), slot.key == key,
                let field = slot.field, slot.appender?.holdsObjects == true
            else { return nil }
            return field.offset
        #endif
    }

    /// The default content hook: `child` into `parent`'s property `key`.
    static func append<Parent: AMCCodable>(
        _ child: any AMCCodable, to parent: inout Parent, key: String?, context: AMCMarkupContext
    )
        throws
    {
        func typeName() -> String { AMC.unqualifiedName(of: Parent.self) }
        func mismatch() -> AMCError {
            context.error(
                .typeMismatch(
                    expected: "a child that \(typeName()).\(key ?? "") holds",
                    found: "a \(AMC.unqualifiedName(of: type(of: child)))"))
        }
        guard let key else { throw context.error("<\(typeName())> cannot hold children (it has no amcMarkupContentKey)") }
        let parentType = Swift.type(of: parent as Any)
        var slot = slots.value(for: parentType) { Slot(of: parentType, key: key) }
        if slot.key != key { slot = Slot(of: parentType, key: key) }
        guard let field = slot.field else {
            throw context.error("\(typeName()).amcMarkupContentKey names \"\(key)\", which is no settable stored property")
        }
        // An array is appended to in place, not copied for each child.
        if let appender = slot.appender {
            guard appender.append(child, toFieldAt: field.offset, of: &parent) else { throw mismatch() }
            return
        }
        let current = unwrappedValue(field.value(in: parent))
        if let array = current as? any AppendableArray {
            guard let appended = array.appending(child) else { throw mismatch() }
            _ = field.store(appended, in: &parent)
            return
        }
        // A child never replaces another silently: one child goes into an optional that is nil.
        guard RuntimeAccess.shape(of: field.type) == .optional else {
            throw context.error(
                "\(typeName()).\(key) holds children as an array or one child as an optional, not as a \(AMC.unqualifiedName(of: field.type))"
            )
        }
        guard current == nil else { throw context.error("<\(typeName())> holds one child (\(key)), and has one already") }
        guard field.store(child, in: &parent) else { throw mismatch() }
    }
}

/// An array seen without its element type, to append a child to.
protocol AppendableArray {
    /// The array with `element` appended; nil when it is not an element.
    func appending(_ element: Any) -> Any?
    /// What appends to an array field of this type in place.
    static var childAppender: ChildAppender { get }
}

/// Appends children to an array field in place; its type parameter is the array's element type,
/// so that an append works out no generic metadata of its own.
class ChildAppender {
    /// Whether the array's elements are class instances, and children are appended as objects.
    var holdsObjects: Bool { false }

    /// Appends `child` to the array field at `offset` of `instance`; false, changing nothing,
    /// when it is not an element.
    func append<Root>(_ child: any AMCCodable, toFieldAt offset: Int, of instance: inout Root) -> Bool { false }
}

private final class ArrayChildAppender<Element>: ChildAppender {
    private let elementsAreObjects = RuntimeAccess.shape(of: Element.self) == .class
    override var holdsObjects: Bool { elementsAreObjects }

    override func append<Root>(_ child: any AMCCodable, toFieldAt offset: Int, of instance: inout Root) -> Bool {
        #if !canImport(ObjectiveC)
            if elementsAreObjects, let object = RuntimeAccess.object(ofAny: child) {
                guard object is Element else { return false }
                RuntimeAccess.append(object, toObjectArrayAt: offset, in: &instance)
                return true
            }
        #endif
        guard let element = child as? Element else { return false }
        RuntimeAccess.modify([Element].self, at: offset, in: &instance) { $0.append(element) }
        return true
    }
}

extension Array: AppendableArray {
    func appending(_ element: Any) -> Any? {
        guard let element = element as? Element else { return nil }
        return self + [element]
    }

    static var childAppender: ChildAppender { ArrayChildAppender<Element>() }
}
