import Foundation

/// What building markup may use: the registry that decides which types may be instantiated,
/// named styles, localised strings and the conditions `<?if?>` tests.
///
/// ```swift
/// var builder = AMCMarkupBuilder()
/// builder.archiver.registry = myTypes          // only these may be instantiated
/// builder.strings = ["title": "Pharmacies"]    // text="@title"
/// builder.stylesheet = try AMCStylesheet(contentsOf: themeURL)
/// let table = try markup.build(Table.self, using: builder)
/// ```
public struct AMCMarkupBuilder: Sendable {
    /// The archiver whose registry decides what may be instantiated and whose settings convert
    /// attribute values.
    public var archiver = AMCArchiver()
    /// Named styles for `class="a, b"`, merged with the document's own `<?properties?>`.
    public var stylesheet: AMCStylesheet?
    /// The values of `"@key"` attribute values and text.
    public var strings: [String: String]?
    /// The names `<?if name?>` is true for; by default the platform's: `linux`, or `macOS` or
    /// `iOS` with `apple`.
    public var conditions: Set<String>
    /// Whether `id`, `class` and `factory` are the builder's or need an `amc:` prefix.
    public var reservedAttributes: AMCMarkupReservedNames = .plain

    /// A builder with the shared registry and the platform's conditions.
    ///
    /// ```swift
    /// let builder = AMCMarkupBuilder()   // builder.conditions == ["linux"] on Linux
    /// ```
    public init() {
        #if os(Linux)
            conditions = ["linux"]
        #elseif os(macOS)
            conditions = ["macOS", "apple"]
        #elseif os(iOS)
            conditions = ["iOS", "apple"]
        #else
            conditions = []
        #endif
    }
}

extension AMCMarkup {
    /// The root element's object, of `Root` or a registered subclass, with its tree built and
    /// every `id` bound to `owner`; all or nothing: on any fault nothing is assigned to `owner`
    /// and the ``AMCError`` (``AMCError/Kind/invalidMarkup(errors:)``) lists every fault.
    ///
    /// ```swift
    /// let column = try markup.build(Column.self, owner: cell)
    /// ```
    public func build<Root: AMCCodable>(
        _ type: Root.Type = Root.self, owner: (any AMCCodable & AnyObject)? = nil,
        using builder: AMCMarkupBuilder = AMCMarkupBuilder()
    ) throws -> Root {
        var build = MarkupBuild(markup: self, builder: builder, owner: owner)
        guard let root = try build.run(expected: Root.self, into: nil, binds: true) as? Root else {
            throw AMCError(.invalidMarkup(errors: build.faults))
        }
        return root
    }

    /// Builds a document whose root element is `<root>` (or names `root`'s class) into `root`
    /// itself: its attributes and children go to `root`; all or nothing.
    ///
    /// ```swift
    /// let cell = PharmacyCell()
    /// try markup.build(into: cell, owner: cell)
    /// ```
    public func build<Root: AMCCodable & AnyObject>(
        into root: Root, owner: (any AMCCodable & AnyObject)? = nil, using builder: AMCMarkupBuilder = AMCMarkupBuilder()
    ) throws {
        // A first build into a copy of `root` (made by archiving it, else a new instance) finds
        // every fault before `root` is touched.
        var copier = builder.archiver
        copier.noThrow = false
        let copy = try? copier.object(Root.self, from: copier.dictionaryRepresentation(of: root))
        var trial = MarkupBuild(markup: self, builder: builder, owner: owner)
        _ = try trial.run(expected: Root.self, into: (copy ?? nil) ?? Swift.type(of: root).init(), binds: false)
        var build = MarkupBuild(markup: self, builder: builder, owner: owner)
        _ = try build.run(expected: Root.self, into: root, binds: true)
    }

    /// Builds the tree and discards it, assigning nothing to `owner`: the one-line test an app
    /// writes for each of its markup files.
    ///
    /// ```swift
    /// try AMCMarkup(contentsOf: url).check(Column.self, owner: PharmacyCell())
    /// ```
    public func check<Root: AMCCodable>(
        _ type: Root.Type, owner: (any AMCCodable & AnyObject)? = nil, using builder: AMCMarkupBuilder = AMCMarkupBuilder()
    ) throws {
        var build = MarkupBuild(markup: self, builder: builder, owner: owner)
        _ = try build.run(expected: Root.self, into: nil, binds: false)
    }
}

/// One build of a parsed markup document.
struct MarkupBuild {
    let markup: AMCMarkup
    let builder: AMCMarkupBuilder
    let owner: (any AMCCodable & AnyObject)?
    var faults: [AMCError] = []
    /// The objects with ids, by id, with where the id is.
    private var ids: [String: (object: any AMCCodable, context: AMCMarkupContext)] = [:]
    /// The ids a fault makes uncertain: those in elements left out with their subtree, an id
    /// given twice on one element, an id used twice. A `$name` naming one is no fault of its
    /// own, and is not resolved (it could find another object, or the owner's property).
    private var uncertainIds: Set<String> = []
    /// `$name` attribute values, to resolve once the tree exists.
    private var references: [(object: any AMCCodable, keyPath: String, name: String, context: AMCMarkupContext)] = []
    /// The class objects built, children before parents, for ``AMCMarkupElement/amcDidBuildMarkup(_:)``.
    private var built: [(object: any AMCMarkupElement, context: AMCMarkupContext)] = []
    /// The named styles: the builder's stylesheet's, then each `<?properties?>` met so far.
    private var styles: [String: [String: Any]]
    private static let maximumFaults = 100
    /// The owner's outlets bound, with the values they held before.
    private var previousValues: [(FieldPlan, Any)] = []
    /// What each element type takes, asked once a build.
    private var infos: [ObjectIdentifier: MarkupTypeInfo] = [:]
    /// What each element name stands for in the registry, asked once a build, by the name's
    /// number.
    private var types: [AMCRegistry.Lookup?]
    /// By element name number, the info of the type the name's last element was: each name makes
    /// objects of one type unless a factory makes another.
    private var infosByName: [(type: ObjectIdentifier, info: MarkupTypeInfo)?]
    /// By element name number, what the name is (see ``NameKind``).
    private var nameKinds: [NameKind?]

    /// What an element name is.
    private enum NameKind {
        /// A type's (registered or not).
        case type
        /// `Parent.property`: it has a dot.
        case property
        /// `root`, for ``AMCMarkup/build(into:owner:using:)``.
        case root
    }
    /// By attribute name number, whether the attribute is the builder's (`id`, `class`, `factory`).
    private var builderNames: [Bool?]
    /// The elements' paths, for the places of faults and hooks.
    private let paths: MarkupPaths
    /// Struct strings converted so far, by the type converted to and string: a document
    /// repeats its fonts, colours and sizes, and each converts once a build.
    private var conversions: [Conversion: Any] = [:]
    private static let maximumConversions = 4096

    private struct Conversion: Hashable {
        let type: ObjectIdentifier
        let string: String
    }

    init(markup: AMCMarkup, builder: AMCMarkupBuilder, owner: (any AMCCodable & AnyObject)?) {
        self.markup = markup
        self.builder = builder
        self.owner = owner
        styles = builder.stylesheet?.styles ?? [:]
        paths = MarkupPaths(nodes: markup.nodes, conditions: builder.conditions)
        types = Array(repeating: nil, count: markup.nameCount)
        infosByName = Array(repeating: nil, count: markup.nameCount)
        nameKinds = Array(repeating: nil, count: markup.nameCount)
        builderNames = Array(repeating: nil, count: markup.nameCount)
    }

    /// Builds the document's tree: a new `expected` (or registered subtype), or into `root`;
    /// then references, ids (bound to the owner when `binds`) and the did-build hooks. Nil
    /// when there were faults, which ``faults`` lists.
    mutating func run(expected: any AMCCodable.Type, into root: (any AMCCodable & AnyObject)?, binds: Bool) throws -> (
        any AMCCodable
    )? {
        var object: (any AMCCodable)?
        var index = 0
        while index < markup.nodes.count {
            let node = markup.nodes[index]
            defer { index = node.end }
            switch node.content {
            case let .instruction(target, data) where target == "properties":
                mergeProperties(data, at: index)
            case .element:
                object = tree(index, expected: expected, into: root)
            default:
                break
            }
        }
        // Ids and references are checked after other faults too, so that one error lists them
        // all; references are stored, and the owner bound, only when there are none.
        let bindings = checkedIds()
        resolveReferences()
        if binds, faults.isEmpty { bind(bindings) }
        if faults.isEmpty {
            for (object, context) in built {
                var element = object
                do { try element.amcDidBuildMarkup(context) } catch { fault(error, at: context) }
            }
            if !faults.isEmpty { unbindIds() }
        }
        guard faults.isEmpty else { throw AMCError(.invalidMarkup(errors: faults)) }
        return object
    }

    // MARK: - Elements

    /// An element being built, with where its children are. Its object is changed where it lies
    /// (a copy taken out and put back would make a struct's arrays copy themselves at each child).
    private struct Frame {
        /// An element's object, which its attributes have set; for a property element, nothing
        /// (a ``MarkupVacancy``).
        var object: any AMCCodable
        /// The element's attributes that are the builder's (`id`, `class`, `factory`).
        var reserved: [MarkupAttribute] = []
        /// `<Parent.property>`: the children built so far, for the parent's `field`.
        var property: (name: String, field: FieldPlan, children: [any AMCCodable])?
        /// What the element's type takes (nothing, for a property element).
        let info: MarkupTypeInfo
        /// The element's node (its place, for faults and hooks, is made from it when needed).
        let element: Int
        /// The next child node, and the index past the last.
        var next: Int
        let end: Int
        /// For each open `<?if?>`: whether its branch is skipped.
        var skipping: [Bool] = []
        /// The element's text so far, in pieces (text between comments, CDATA sections), with
        /// the node of the first: set as one at the element's end.
        var text: [(text: String, isCDATA: Bool)] = []
        var textNode: Int?
    }

    /// The object of the element at `index` with its subtree, built with a stack of its own
    /// (a deep tree needs no deep call stack); nil when it has faults (recorded).
    private mutating func tree(
        _ index: Int, expected: (any AMCCodable.Type)?, into root: (any AMCCodable & AnyObject)?
    ) -> (any AMCCodable)? {
        // No binding of the first frame beside the stack: it would hold a second copy of the object.
        guard var stack = open(index, expected: expected, into: root).map({ [$0] }) else { return nil }
        while let top = stack.indices.last {
            if stack[top].next < stack[top].end {
                let child = stack[top].next
                stack[top].next = markup.nodes[child].end
                if let frame = step(child, in: &stack[top]) { stack.append(consume frame) }
                continue
            }
            var done = stack.removeLast()
            if let (name, field, children) = done.property {
                guard let parent = stack.indices.last, stack[parent].property == nil else { continue }
                setProperty(field, of: &stack[parent].object, to: children, name: name, context: context(at: done.element))
                continue
            }
            if let textNode = done.textNode {
                setText(done.text, of: &done.object, textKey: done.info.element?.textKey, at: textNode, in: done.element)
            }
            finish(&done.object, info: done.info, reserved: done.reserved, element: done.element)
            guard let parent = stack.indices.last else { return done.object }
            deliver(done.object, to: &stack[parent], element: done.element)
        }
        return nil
    }

    /// A frame for the element at `index`: its object made and set from its attributes; nil
    /// (faults recorded) when there is none to make, and its subtree is skipped.
    private mutating func open(
        _ index: Int, expected: (any AMCCodable.Type)?, into root: (any AMCCodable & AnyObject)?
    ) -> Frame? {
        guard case let .element(_, range) = markup.nodes[index].content else { return nil }
        let number = Int(markup.nodes[index].nameNumber)
        let attributes = markup.attributes[range]
        // The builder's own attributes, set apart once: most elements have none.
        var reserved: [MarkupAttribute] = []
        for attribute in attributes.indices where isBuilders(attributes, at: attribute) { reserved.append(attributes[attribute]) }
        guard
            var object = instantiate(number: number, reserved: reserved, expected: expected, into: root, element: index)
        else {
            leaveOut(index)
            return nil
        }
        let info = info(of: Swift.type(of: object), name: number)
        applyStyles(reserved, to: &object, element: index)
        setAttributes(attributes, reserved: reserved, of: &object, info: info, element: index)
        return Frame(
            object: object, reserved: reserved, info: info, element: index, next: index + 1, end: markup.nodes[index].end)
    }

    /// The name of the element node at `index`.
    private func elementName(at index: Int) -> String {
        guard case let .element(name, _) = markup.nodes[index].content else { return "" }
        return name
    }

    /// What elements of `type` take, asked of the type once a build.
    /// (`name`: the number of the element's name.)
    private mutating func info(of type: any AMCCodable.Type, name: Int) -> MarkupTypeInfo {
        let identifier = ObjectIdentifier(type)
        if let known = infosByName[name], known.type == identifier { return known.info }
        let info = infos[identifier] ?? MarkupTypeInfo(type)
        infos[identifier] = info
        infosByName[name] = (identifier, info)
        return info
    }

    /// An element complete (the element node at `element`): a struct is told it is built (a
    /// value: its parent keeps a copy), a class waits for the ids; its id is recorded.
    private mutating func finish(
        _ object: inout any AMCCodable, info: MarkupTypeInfo, reserved: [MarkupAttribute], element: Int
    ) {
        if let view = info.element, !info.didBuildDoesNothing {
            let context = context(at: element)
            if info.isClass {
                built.append((view.view(object), context))
            } else {
                do {
                    try Self.withElement(&object, as: view, isClass: false) { try $0.amcDidBuildMarkup(context) }
                } catch {
                    fault(error, at: context)
                }
            }
        }
        if let id = reserved.first(where: { builder.reservedAttributes.builderName(of: $0.name) == .id }) {
            record(id: id, of: object, context: context(of: id, in: context(at: element)))
        }
    }

    /// Hands a complete child (the element node at `element`) to the frame it is in.
    private mutating func deliver(_ child: any AMCCodable, to frame: inout Frame, element: Int) {
        if frame.property != nil {
            frame.property!.children.append(child)
        } else {
            append(child, to: &frame.object, info: frame.info, element: element, siblings: (frame.element + 1)..<frame.end)
        }
    }

    /// How many element nodes the nodes of `range` are, counting each element once (not its
    /// descendants); 0 when an instruction is among them (an `<?if?>` may leave elements out).
    private func elementCount(in range: Range<Int>) -> Int {
        var count = 0
        var index = range.lowerBound
        while index < range.upperBound {
            if markup.nodes[index].nameNumber >= 0 { count += 1 }
            if markup.nodes[index].isInstruction { return 0 }
            index = markup.nodes[index].end
        }
        return count
    }

    // MARK: - Children

    /// Takes the child node at `index` of `frame`: text, instructions and untyped elements go to
    /// the frame's object; an element or a property element is a new frame to build.
    private mutating func step(_ index: Int, in frame: inout Frame) -> Frame? {
        // Most children: an element named by a type, in an object's frame that takes no untyped
        // elements, where no <?if?> is open (only elements' names have numbers).
        if frame.property == nil, frame.skipping.isEmpty, !frame.info.takesUntypedElements {
            let number = Int(markup.nodes[index].nameNumber)
            if number >= 0, nameKinds[number] == .type { return open(index, expected: nil, into: nil) }
        }
        let node = markup.nodes[index]
        if paths.condition(node, skipping: &frame.skipping) || frame.skipping.last == true { return nil }
        // A child element is a new frame; its parent's object is needed only for a property
        // element or an untyped element.
        if case let .element(name, childAttributes) = node.content, frame.property == nil {
            if kind(ofName: name, number: Int(node.nameNumber)) == .property {
                return propertyFrame(index, name: name, of: frame.object)
            }
            if let element = frame.info.element, !element.elements.isEmpty, element.elements.contains(name) {
                untypedElement(
                    name, attributes: markup.attributes[childAttributes], at: index, of: &frame.object, as: element,
                    isClass: frame.info.isClass)
                return nil
            }
            return open(index, expected: nil, into: nil)
        }
        guard frame.property == nil else {
            // A property element holds elements only.
            if case .element = node.content { return open(index, expected: nil, into: nil) }
            fault(
                "<\(context(at: frame.element).elementPath.split(separator: "/").last ?? "")> holds elements only",
                at: context(at: index, pathOf: frame.element))
            return nil
        }
        switch node.content {
        case .element:
            break  // opened above
        case let .text(text, isCDATA):
            frame.text.append((text, isCDATA))
            if frame.textNode == nil { frame.textNode = index }
        case let .instruction(target, data):
            if target == "properties" {
                mergeProperties(data, at: index)
            } else {
                let context = context(at: index, pathOf: frame.element)
                instruction(target, data: data, to: &frame.object, as: frame.info, context: context)
            }
        }
        return nil
    }

    /// Whether the attribute at `index` of `attributes` is one of the builder's (see
    /// ``AMCMarkupReservedNames``).
    private mutating func isBuilders(_ attributes: ArraySlice<MarkupAttribute>, at index: Int) -> Bool {
        let number = Int(attributes[index].nameNumber)
        if let known = builderNames[number] { return known }
        let isBuilders = builder.reservedAttributes.builderName(of: attributes[index].name) != nil
        builderNames[number] = isBuilders
        return isBuilders
    }

    /// What the element name `name` (numbered `number`) is.
    private mutating func kind(ofName name: String, number: Int) -> NameKind {
        if let known = nameKinds[number] { return known }
        let kind: NameKind = name == "root" ? .root : name.utf8.contains(UInt8(ascii: ".")) ? .property : .type
        nameKinds[number] = kind
        return kind
    }

    /// A frame for `<Parent.property>` at `index`, whose child elements set `property` of
    /// `object`; nil (a fault recorded) when it names no settable property of it.
    private mutating func propertyFrame(_ index: Int, name: String, of object: any AMCCodable) -> Frame? {
        let node = markup.nodes[index]
        let context = self.context(at: index)
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let ownerType = Swift.type(of: object as Any)
        let ownerName = AMC.unqualifiedName(of: ownerType)
        guard parts.count == 2, parts[0] == (ownerType as? any AMCCodable.Type)?.amcClassName else {
            fault("<\(name)> sets a property of its parent, <\(ownerName)>: name it <\(ownerName).property>", at: context)
            leaveOut(index)
            return nil
        }
        guard let field = TypePlan.of(ownerType).field(named: parts[1]), field.isWritable else {
            let nearest = TypePlan.of(ownerType).nearestKey(to: parts[1])
            fault(.unknownStyleKey(key: parts[1], typeName: ownerName, suggestion: nearest), at: context)
            leaveOut(index)
            return nil
        }
        return Frame(
            object: MarkupVacancy(), property: (name, field, []), info: .property, element: index, next: index + 1,
            end: node.end)
    }

    /// Sets `field` of `object` to the children of `<name>`: all of them for an array property
    /// (what it held is replaced), the one child for an object property.
    private mutating func setProperty(
        _ field: FieldPlan, of object: inout any AMCCodable, to children: [any AMCCodable], name: String,
        context: AMCMarkupContext
    ) {
        var value: Any
        if let array = unwrappedValue(field.value(ofAny: object)) as? any AppendableArray {
            guard let replaced = (Swift.type(of: array) as? any SequenceContainer.Type)?.make(from: children) else {
                let wrong = children.first { array.appending($0) == nil }.map { AMC.unqualifiedName(of: Swift.type(of: $0)) }
                fault(.typeMismatch(expected: "what \(name) holds", found: "a \(wrong ?? "child of another type")"), at: context)
                return
            }
            value = replaced
        } else {
            guard children.count == 1, let only = children.first else {
                if children.count > 1 { fault("<\(name)> holds one element, for one \(field.name)", at: context) }
                return
            }
            value = only
        }
        func store<Object: AMCCodable>(_ object: inout Object) -> Bool { field.store(value, in: &object) }
        if !store(&object) {
            fault(
                .typeMismatch(expected: "what \(name) holds", found: "a \(AMC.unqualifiedName(of: Swift.type(of: value)))"),
                at: context)
        }
    }

    /// A new instance for the element node at `element`, whose name is numbered `number`: of the
    /// registered type it names, by its factory or `init()`; `root` itself for the root element
    /// of `build(into:)`.
    private mutating func instantiate(
        number: Int, reserved: [MarkupAttribute], expected: (any AMCCodable.Type)?,
        into root: (any AMCCodable & AnyObject)?, element: Int
    ) -> (any AMCCodable)? {
        // The name itself is needed only the first time it is met, and for a fault.
        var name: String { elementName(at: element) }
        let kind = nameKinds[number] ?? kind(ofName: name, number: number)
        if let root {
            guard kind == .root || name == Swift.type(of: root).amcClassName else {
                fault(
                    "the root element is <\(name)>; building into a \(AMC.unqualifiedName(of: Swift.type(of: root))) takes <root>",
                    at: context(at: element))
                return nil
            }
            return root
        }
        guard kind != .root else {
            fault("<root> is for build(into:), which builds into an object given", at: context(at: element))
            return nil
        }
        let type: any AMCCodable.Type
        let lookup: AMCRegistry.Lookup
        if let known = types[number] {
            lookup = known
        } else {
            lookup = builder.archiver.registry.lookup(name)
            types[number] = lookup
        }
        switch lookup {
        case let .type(found):
            type = found
        case .missing:
            let nearest = TypePlan.nearest(to: name, among: builder.archiver.registry.names())
            fault(
                "no registered type is named \(name)" + (nearest.map { " — did you mean \($0)?" } ?? ""), at: context(at: element)
            )
            return nil
        case let .ambiguous(types):
            fault(.ambiguousClassName(className: name, typeNames: types.map(AMCRegistry.fullName)), at: context(at: element))
            return nil
        }
        func isExpected<Expected>(_: Expected.Type) -> Bool { type is Expected.Type }
        if let expected, !isExpected(expected) {
            fault(.unrelatedClass(className: name, expected: AMC.unqualifiedName(of: expected)), at: context(at: element))
            return nil
        }
        guard let factory = reserved.first(where: { builder.reservedAttributes.builderName(of: $0.name) == .factory }) else {
            return type.init()
        }
        // A factory it does not have is a fault; the element is still made, so that what is
        // inside it is checked too.
        guard let elementType = type as? any AMCMarkupElement.Type else {
            fault(
                "<\(name)> has no factories (it is no AMCMarkupElement)", at: self.context(of: factory, in: context(at: element)))
            return type.init()
        }
        if let made = elementType.amcMarkupFactory(factory.value) { return made }
        let names = elementType.amcMarkupFactoryNames
        let known = names.isEmpty ? "it has none" : "it has \(names.joined(separator: ", "))"
        fault("<\(name)> has no factory \"\(factory.value)\": \(known)", at: self.context(of: factory, in: context(at: element)))
        return type.init()
    }

    // MARK: - Attributes

    /// Applies the styles `class="a, b"` names, in order.
    private mutating func applyStyles(
        _ reserved: [MarkupAttribute], to object: inout any AMCCodable, element index: Int
    ) {
        guard let attribute = reserved.first(where: { builder.reservedAttributes.builderName(of: $0.name) == .class }) else {
            return
        }
        let context = context(of: attribute, in: context(at: index))
        for name in attribute.value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            let style: [String: Any]
            do {
                guard let resolved = try resolvedStyle(name, context: context) else {
                    let nearest = TypePlan.nearest(to: name, among: Set(styles.keys)).map { " — did you mean \"\($0)\"?" } ?? ""
                    fault("no style is named \"\(name)\"\(nearest)", at: context)
                    continue
                }
                style = resolved
            } catch {
                fault(error, at: context)
                continue
            }
            // As `apply(style:)` applies it: a nested dictionary fills the object or struct there.
            func apply<Object: AMCCodable>(_ object: inout Object) throws {
                try Styling.apply([style], to: &object, archiver: builder.archiver)
            }
            do {
                try apply(&object)
            } catch let error as AMCError {
                guard case let .invalidStyle(entries) = error.kind else {
                    fault(error, at: context)
                    continue
                }
                for entry in entries {
                    let place = AMCMarkupContext(
                        file: context.file, line: context.line, column: context.column,
                        place: context.place.appending("/" + entry.keyPath))
                    fault(entry, at: place)
                }
            } catch {
                fault(error, at: context)
            }
        }
    }

    /// The named style `name` with what it extends merged in (its own entries win), as the
    /// document declares it so far; nil when there is none.
    private func resolvedStyle(_ name: String, context: AMCMarkupContext) throws -> [String: Any]? {
        guard var style = styles[name] else { return nil }
        var chain = [name]
        while let parent = style["extends"] {
            guard let parentName = parent as? String, let parentStyle = styles[parentName] else {
                throw context.error(
                    .typeMismatch(expected: "the name of a style after \"extends\"", found: ArchiveValue.literal(parent)))
            }
            guard !chain.contains(parentName) else {
                throw context.error(
                    .typeMismatch(
                        expected: "styles that do not extend themselves", found: (chain + [parentName]).joined(separator: " → ")))
            }
            chain.append(parentName)
            style["extends"] = parentStyle["extends"]
            style.merge(parentStyle.filter { $0.key != "extends" }) { own, _ in own }
        }
        return style
    }

    /// Sets each attribute that is not the builder's, by key path.
    private mutating func setAttributes(
        _ attributes: ArraySlice<MarkupAttribute>, reserved builderAttributes: [MarkupAttribute],
        of object: inout any AMCCodable, info: MarkupTypeInfo, element: Int
    ) {
        let reserved = builder.reservedAttributes
        var builderNames = Set<MarkupBuilderName>()
        for index in attributes.indices {
            if builderAttributes.isEmpty, setsKeptValue(of: attributes, at: index, on: &object, info: info, element: element) {
                continue
            }
            let attribute = attributes[index]
            // The attribute's place (a path to build) is made only for a fault.
            if !builderAttributes.isEmpty, let builderName = reserved.builderName(of: attribute.name) {
                if !builderNames.insert(builderName).inserted {
                    if builderName == .id { uncertainIds.insert(attribute.value) }
                    fault(
                        "\(builderName) is given twice (as \(builderName) and as amc:\(builderName))",
                        at: context(of: attribute, in: context(at: element)))
                }
                if reserved == .plain, !attribute.name.hasPrefix("amc:"),
                    TypePlan.of(Swift.type(of: object as Any)).field(named: attribute.name) != nil
                {
                    fault(
                        "\(attribute.name) is the builder's, and also a property of \(AMC.unqualifiedName(of: Swift.type(of: object as Any))): "
                            + "build with reservedAttributes = .prefixed (amc:\(attribute.name))",
                        at: context(of: attribute, in: context(at: element)))
                }
                continue
            }
            switch resolved(attribute.value) {
            case let .text(text):
                do {
                    // The value's number stands for the text only when it is the value's text.
                    let value = text == attribute.value ? Int(attribute.valueNumber) : -1
                    try set(
                        text, value: value, keyPath: attribute.name, number: Int(attribute.nameNumber), on: &object, info: info)
                } catch {
                    fault(error, at: context(of: attribute, in: context(at: element)))
                }
            case let .reference(name):
                refer(to: name, from: object, keyPath: attribute.name, context: context(of: attribute, in: context(at: element)))
            case let .missingString(key):
                fault("no string \"\(key)\" among the builder's strings", at: context(of: attribute, in: context(at: element)))
            }
        }
    }

    /// Sets the attribute at `index` of `attributes` when its value is one its setter keeps (a
    /// value as written: one marked `@`, `$` or `^` is never kept), the object's hook first;
    /// false, doing nothing, when it is not.
    private mutating func setsKeptValue(
        of attributes: ArraySlice<MarkupAttribute>, at index: Int, on object: inout any AMCCodable, info: MarkupTypeInfo,
        element: Int
    ) -> Bool {
        guard let attribute = info.knownPlan(Int(attributes[index].nameNumber)), let plan = attribute.plan,
            let setter = attribute.setter, let kept = setter.kept(Int(attributes[index].valueNumber))
        else { return false }
        do {
            try Self.set(attributes[index].value, keptAt: kept, by: setter, along: plan, on: &object)
        } catch {
            fault(error, at: context(of: attributes[index], in: context(at: element)))
        }
        return true
    }

    /// What an attribute's value (or text) stands for.
    private enum Resolved {
        /// The text to set: as written, a string of the builder's (`@key`), or escaped (`^`).
        case text(String)
        /// `$name`: the object with that id, or the owner's value at that key path.
        case reference(String)
        /// `@key` for a key the builder's strings do not have.
        case missingString(String)
    }

    /// What `value` stands for: `@key` a string of the builder's, `$name` a reference, `^`
    /// escaping a first `@`, `$` or `^`.
    private func resolved(_ value: String) -> Resolved {
        switch value.utf8.first {
        case UInt8(ascii: "@"):
            let key = String(value.dropFirst())
            return builder.strings?[key].map { .text($0) } ?? .missingString(key)
        case UInt8(ascii: "$"): return .reference(String(value.dropFirst()))
        case UInt8(ascii: "^"): return .text(String(value.dropFirst()))
        default: return .text(value)
        }
    }

    /// Sets an attribute's `string` (the document's value numbered `value`, or -1) at `keyPath`
    /// (the attribute name numbered `number`) of `object`, along the key path's plan with a
    /// value converted once a build; by Key-Value Coding where the plan cannot go.
    private mutating func set(
        _ string: String, value: Int, keyPath: String, number: Int, on object: inout any AMCCodable, info: MarkupTypeInfo
    ) throws {
        let attribute = info.plan(for: keyPath, number: number, of: object)
        if let plan = attribute.plan {
            if let setter = attribute.setter, value >= 0 {
                let converted = setter.kept(value) == nil ? convertedStructString(string, along: plan) : nil
                try Self.set(
                    string, value: value, converted: converted, keeping: setter, along: plan, on: &object,
                    archiver: builder.archiver)
                return
            }
            let converted = convertedStructString(string, along: plan)
            if try Self.set(string, converted: converted, along: plan, on: &object, archiver: builder.archiver) { return }
        }
        try Self.set(string: string, keyPath: keyPath, on: &object, archiver: builder.archiver)
    }

    /// What `string` converts to for `plan`'s field when it holds one of the package's struct
    /// strings, converted once a build; nil for other fields.
    private mutating func convertedStructString(_ string: String, along plan: KeyPathPlan) -> Any? {
        guard plan.holdsOwnStructString else { return nil }
        let key = Conversion(type: ObjectIdentifier(plan.field.type), string: string)
        if let known = conversions[key] { return known }
        guard let value = plan.scalarValue(from: string, archiver: builder.archiver) else { return nil }
        if conversions.count < Self.maximumConversions { conversions[key] = value }
        return value
    }

    /// Sets `string` (`converted` when given) along `plan` (see ``KeyPathPlan/set(_:converted:in:archiver:asksHook:)``).
    /// (Static: the archiver is passed as it is, not copied out of the build for each attribute.)
    private static func set(
        _ string: String, converted: Any?, along plan: KeyPathPlan, on object: inout any AMCCodable, archiver: AMCArchiver
    ) throws -> Bool {
        func set<Object: AMCCodable>(_ object: inout Object) throws -> Bool {
            try plan.set(.string(string), converted: converted, in: &object, archiver: archiver)
        }
        return try set(&object)
    }

    /// Sets `string`, the document's value numbered `value`, along `plan`, which ends at the
    /// class instance `object`, the root's hook first: what `setter` keeps for the value, else
    /// `converted` (when given) or converted the full way, and then kept.
    private static func set(
        _ string: String, value: Int, converted: Any?, keeping setter: MarkupSetter, along plan: KeyPathPlan,
        on object: inout any AMCCodable, archiver: AMCArchiver
    ) throws {
        func set<Object: AMCCodable>(_ object: inout Object) throws {
            if try KeyValueCoding.hookTook(string, forKey: plan.key, of: object, keyPath: plan.keyPath) { return }
            let instance = RuntimeAccess.object(of: object)
            if let kept = setter.kept(value) {
                setter.write(kept, in: instance)
                return
            }
            _ = try plan.set(.string(string), converted: converted, in: &object, archiver: archiver, asksHook: false)
            setter.remember(value, from: instance)
        }
        try set(&object)
    }

    /// Sets `string`, whose value `setter` keeps at `kept`, along `plan`, which ends at the
    /// class instance `object`: the root's hook first, then what is kept.
    private static func set(
        _ string: String, keptAt kept: Int, by setter: MarkupSetter, along plan: KeyPathPlan, on object: inout any AMCCodable
    ) throws {
        func set<Object: AMCCodable>(_ object: inout Object) throws {
            if try KeyValueCoding.hookTook(string, forKey: plan.key, of: object, keyPath: plan.keyPath) { return }
            setter.write(kept, in: RuntimeAccess.object(of: object))
        }
        try set(&object)
    }

    /// Sets `string` at `keyPath` of `object`.
    private static func set(string: String, keyPath: String, on object: inout any AMCCodable, archiver: AMCArchiver) throws {
        func set<Object: AMCCodable>(_ object: inout Object) throws {
            try KeyValueCoding.set(string: string, keyPath: keyPath, in: &object, archiver: archiver)
        }
        try set(&object)
    }

    /// Sets `value` (a string, or a style's native value) at `keyPath` of `object`.
    private static func set(_ value: Any, keyPath: String, on object: inout any AMCCodable, archiver: AMCArchiver) throws {
        func set<Object: AMCCodable>(_ object: inout Object) throws {
            if let string = value as? String {
                try KeyValueCoding.set(string: string, keyPath: keyPath, in: &object, archiver: archiver)
            } else {
                try KeyValueCoding.set(value, keyPath: keyPath, in: &object, archiver: archiver)
            }
        }
        try set(&object)
    }

    /// A child element its parent's ``AMCMarkupElement/amcMarkupElements`` lists.
    private mutating func untypedElement(
        _ name: String, attributes: ArraySlice<MarkupAttribute>, at index: Int, of object: inout any AMCCodable,
        as parent: MarkupTypeInfo.Element, isClass: Bool
    ) {
        let node = markup.nodes[index]
        let context = self.context(at: index)
        if markup.nodes[(index + 1)..<node.end].contains(where: { if case .element = $0.content { true } else { false } }) {
            fault("<\(name)> is handed to its parent with its attributes; it holds no elements", at: context)
            leaveOut(index)
        }
        do {
            try Self.withElement(&object, as: parent, isClass: isClass) {
                try $0.amcProcessMarkupElement(name, attributes: attributes.map { ($0.name, $0.value) }, context)
            }
        } catch {
            fault(error, at: context)
        }
    }

    /// Hands a complete child (the element node at `element`, among the nodes `siblings`) to its
    /// parent.
    private mutating func append(
        _ child: any AMCCodable, to object: inout any AMCCodable, info: MarkupTypeInfo, element: Int, siblings: Range<Int>
    ) {
        // What the parent's default hook would do, done here once it has taken a child of this class;
        // its array is given room for all the parent's child elements at once.
        let childObject = RuntimeAccess.object(ofAny: child)
        if let childObject, let offset = info.contentOffset, info.takes(Swift.type(of: childObject)) {
            RuntimeAccess.append(childObject, toObjectArrayAt: offset, of: RuntimeAccess.object(ofAny: object)!) {
                elementCount(in: siblings)
            }
            return
        }
        let context = context(at: element)
        guard let view = info.element else {
            fault(
                "<\(AMC.unqualifiedName(of: Swift.type(of: object as Any)))> cannot hold children (it is no AMCMarkupElement)",
                at: context)
            return
        }
        do {
            try Self.withElement(&object, as: view, isClass: info.isClass) { try $0.amcAppendMarkupChild(child, context) }
        } catch {
            fault(error, at: context)
            return
        }
        if let childObject { info.tookChild(of: Swift.type(of: childObject), by: Swift.type(of: object as Any)) }
    }

    /// Runs `hook` on `object` seen as the element it is, and keeps what it changed. A struct is
    /// taken out of `object` first, so that the hook works on the only copy: its arrays grow in
    /// place, not copied whole at each child. (After a thrown error the struct is kept as the
    /// hook left it: the build fails.)
    private static func withElement(
        _ object: inout any AMCCodable, as view: MarkupTypeInfo.Element, isClass: Bool,
        _ hook: (inout any AMCMarkupElement) throws -> Void
    ) rethrows {
        var element = view.view(object)
        if !isClass { object = MarkupVacancy() }
        defer { object = element }
        try hook(&element)
    }

    /// Records `$name` for `keyPath` of `object`, set once the tree exists: into the object
    /// itself, so only into a class's.
    private mutating func refer(to name: String, from object: any AMCCodable, keyPath: String, context: AMCMarkupContext) {
        guard RuntimeAccess.identity(ofAny: object) != nil else {
            let typeName = AMC.unqualifiedName(of: Swift.type(of: object as Any))
            fault("$\(name) is set once the tree is built, into an object; <\(typeName)> is a struct", at: context)
            return
        }
        references.append((object, keyPath, name, context))
    }

    /// Sets the text key from text content.
    private mutating func setText(
        _ pieces: [(text: String, isCDATA: Bool)], of object: inout any AMCCodable, textKey: String?, at index: Int,
        in element: Int
    ) {
        let context = context(at: index, pathOf: element)
        // Text around comments and CDATA sections is one text; trimmed unless it is all CDATA.
        let joined = pieces.map(\.text).joined()
        let text = pieces.allSatisfy(\.isCDATA) ? joined : joined.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = textKey else {
            fault(
                "<\(AMC.unqualifiedName(of: Swift.type(of: object as Any)))> takes no text (it has no amcMarkupTextKey)",
                at: context)
            return
        }
        switch resolved(text) {
        case let .text(text):
            do {
                try Self.set(string: text, keyPath: key, on: &object, archiver: builder.archiver)
            } catch {
                fault(error, at: context)
            }
        case let .reference(name):
            refer(to: name, from: object, keyPath: key, context: context)
        case let .missingString(key):
            fault("no string \"\(key)\" among the builder's strings", at: context)
        }
    }

    /// Hands a processing instruction to the element it stands in.
    private mutating func instruction(
        _ target: String, data: String?, to object: inout any AMCCodable, as info: MarkupTypeInfo, context: AMCMarkupContext
    ) {
        guard let view = info.element else {
            fault(
                "<\(AMC.unqualifiedName(of: Swift.type(of: object as Any)))> takes no instruction <?\(target)?> (it is no AMCMarkupElement)",
                at: context)
            return
        }
        do {
            try Self.withElement(&object, as: view, isClass: info.isClass) {
                try $0.amcProcessMarkupInstruction(target, data: data, context)
            }
        } catch {
            fault(error, at: context)
        }
    }

    /// Merges `<?properties {JSON}?>` into the named styles, per key; later ones win.
    private mutating func mergeProperties(_ data: String?, at index: Int) {
        let context = self.context(at: index, pathOf: nil)
        do {
            guard let json = try JSONSerialization.jsonObject(with: Data((data ?? "").utf8)) as? [String: Any] else {
                throw context.error(.typeMismatch(expected: "a JSON object of named styles", found: "other JSON"))
            }
            for (name, entries) in json.sorted(by: { $0.key < $1.key }) {
                guard let entries = entries as? [String: Any] else {
                    throw context.error(
                        .typeMismatch(expected: "a dictionary for style \"\(name)\"", found: ArchiveValue.literal(entries)))
                }
                styles[name, default: [:]].merge(entries) { _, new in new }
            }
        } catch {
            fault(error, at: context)
        }
    }

    // MARK: - After the tree

    private mutating func record(id: MarkupAttribute, of object: any AMCCodable, context: AMCMarkupContext) {
        if let first = ids[id.value] {
            uncertainIds.insert(id.value)
            fault(
                "the id \"\(id.value)\" is used twice: at line \(first.context.line), column \(first.context.column) and here",
                at: context)
            return
        }
        ids[id.value] = (object, context)
    }

    /// Notes the ids of the element at `index` and its subtree as uncertain: the element is left
    /// out for a fault.
    private mutating func leaveOut(_ index: Int) {
        for node in markup.nodes[index..<markup.nodes[index].end] {
            guard case let .element(_, range) = node.content else { continue }
            for attribute in markup.attributes[range] where builder.reservedAttributes.builderName(of: attribute.name) == .id {
                uncertainIds.insert(attribute.value)
            }
        }
    }

    /// Sets each `$name` attribute: to the object with that id, else the owner's value at the
    /// key path `name`. After other faults, only checks that each names something and stores
    /// nothing: not even into an object of the owner's that a reference reaches.
    private mutating func resolveReferences() {
        let checksOnly = !faults.isEmpty
        for reference in references where !uncertainIds.contains(reference.name) {
            var target: Any?
            if let found = ids[reference.name] {
                target = found.object
            } else if let owner {
                do {
                    target = try owner.value(forKeyPath: reference.name)
                } catch {
                    let typeName = AMC.unqualifiedName(of: Swift.type(of: owner))
                    fault(
                        "$\(reference.name) names no id of the document, nor a value of the owner (a \(typeName)) at that key path",
                        at: reference.context)
                    continue
                }
            } else {
                fault("$\(reference.name) names no id in the document, and there is no owner", at: reference.context)
                continue
            }
            if checksOnly { continue }
            var object = reference.object
            do {
                try Self.set(target as Any, keyPath: reference.keyPath, on: &object, archiver: builder.archiver)
            } catch {
                fault(error, at: reference.context)
            }
        }
    }

    /// Checks every id against the owner's properties: the owner's field and object for each
    /// one that fits (faults for the others).
    private mutating func checkedIds() -> [(FieldPlan, any AMCCodable)] {
        guard let owner else { return [] }
        let ownerType = Swift.type(of: owner)
        let plan = TypePlan.of(ownerType)
        var bindings: [(FieldPlan, any AMCCodable)] = []
        for (id, (object, context)) in ids.sorted(by: { $0.key < $1.key }) {
            guard let field = plan.field(named: id) else {
                fault(
                    .unknownStyleKey(key: id, typeName: AMC.unqualifiedName(of: ownerType), suggestion: plan.nearestKey(to: id)),
                    at: context)
                continue
            }
            func accepts<T>(_: T.Type) -> Bool { object is T }
            // A `weak` outlet (MarkupKit's were) is pointed at the object; a strong one holds it.
            let settable = field.isStrong ? field.isWritable : field.field.ownership != nil && field.field.isVar
            guard settable, accepts(field.type), field.isStrong || RuntimeAccess.identity(ofAny: object) != nil else {
                fault(
                    .typeMismatch(
                        expected:
                            "an object \(AMC.unqualifiedName(of: ownerType)).\(id) holds (\(AMC.unqualifiedName(of: field.type)))",
                        found: "a \(AMC.unqualifiedName(of: Swift.type(of: object)))"), at: context)
                continue
            }
            bindings.append((field, object))
        }
        return bindings
    }

    /// Points the owner's outlets at the objects of `bindings` (see ``checkedIds()``).
    private mutating func bind(_ bindings: [(FieldPlan, any AMCCodable)]) {
        guard let owner else { return }
        var target: any AMCCodable & AnyObject = owner
        for (field, object) in bindings {
            previousValues.append((field, field.value(in: target)))
            if field.isStrong {
                _ = field.store(object, in: &target)
            } else {
                _ = field.storeReference(object as AnyObject, in: &target)
            }
        }
    }

    /// Gives the owner's outlets back the values they had before ``bind(_:)``: a
    /// did-build hook failed, and a failed build assigns nothing.
    private func unbindIds() {
        guard var target = owner else { return }
        for (field, previous) in previousValues.reversed() {
            if field.isStrong {
                _ = field.store(previous, in: &target)
            } else if let object = unwrappedValue(previous) {
                _ = field.storeReference(object as AnyObject, in: &target)
            } else {
                _ = field.clearWeakReference(in: &target)
            }
        }
    }

    // MARK: - Places and faults

    /// The place of the element node at `index`.
    private func context(at index: Int) -> AMCMarkupContext {
        context(at: index, pathOf: index)
    }

    /// The place of the node at `index`, on the path of the element node `element` (none for
    /// a node outside every element).
    private func context(at index: Int, pathOf element: Int?) -> AMCMarkupContext {
        let node = markup.nodes[index]
        let place = MarkupPlace(paths: element == nil ? nil : paths, element: element ?? index, suffix: "")
        return AMCMarkupContext(file: markup.files[node.file], line: Int(node.line), column: Int(node.column), place: place)
    }

    private func context(of attribute: MarkupAttribute, in context: AMCMarkupContext) -> AMCMarkupContext {
        AMCMarkupContext(
            file: context.file, line: Int(attribute.line), column: Int(attribute.column),
            place: context.place.appending("/@" + attribute.name))
    }

    // The cap is checked before an error is made: making one works out its element's path.
    private mutating func fault(_ reason: String, at context: AMCMarkupContext) {
        guard faults.count < Self.maximumFaults else { return }
        fault(context.error(reason), at: context)
    }

    private mutating func fault(_ kind: AMCError.Kind, at context: AMCMarkupContext) {
        guard faults.count < Self.maximumFaults else { return }
        fault(context.error(kind), at: context)
    }

    /// Records `error` at `context`: an error of a hook or a conversion gets the place; one
    /// that has a place keeps it.
    private mutating func fault(_ error: any Error, at context: AMCMarkupContext) {
        guard faults.count < Self.maximumFaults else { return }
        guard let error = error as? AMCError else {
            faults.append(context.error(.hookFailed(hook: "markup", typeName: "", reason: "\(error)")))
            return
        }
        if error.location != nil {
            faults.append(error)
            return
        }
        var kind = error.kind
        if case let .unknownKey(key, typeName) = kind {
            let type = builder.archiver.registry.type(named: typeName)
            kind = .unknownStyleKey(
                key: key, typeName: typeName, suggestion: type.flatMap { TypePlan.of($0).nearestKey(to: key) })
        }
        faults.append(context.error(kind))
    }
}

/// What a struct element's place holds while a hook works on the struct (see
/// `MarkupBuild.withElement`): nothing, never seen outside the builder.
private struct MarkupVacancy: AMCCodable {}

/// What the builder asks of an element's type: whether it is an ``AMCMarkupElement``, and then
/// its text key and untyped element names; whether it is a class.
final class MarkupTypeInfo {
    struct Element {
        let textKey: String?
        /// The property children go to (``AMCMarkupElement/amcMarkupContentKey``).
        let contentKey: String?
        let elements: Set<String>
        /// An object of exactly this type as the element it is, with no look-up of the conformance.
        let view: (any AMCCodable) -> any AMCMarkupElement
    }

    let element: Element?
    /// Whether objects of the type are classes: they are told they are built once the ids are bound.
    let isClass: Bool
    /// Whether the type's did-build hook is known to be the default one, which does nothing.
    let didBuildDoesNothing: Bool
    /// Whether the type takes untyped child elements (``AMCMarkupElement/amcMarkupElements``).
    let takesUntypedElements: Bool
    /// The plans of the key paths its attributes have named so far, by the number of the
    /// attribute name (an element type is given a few attribute names, over and over).
    /// (Unchecked: an info is used by one build, and this is never accessed overlapping.)
    @exclusivity(unchecked) private var plans: [AttributePlan?] = []

    /// The plan of the key path an attribute names, with what keeps the values its strings made
    /// when the type is a class.
    final class AttributePlan {
        /// Nil for a key path that has none.
        let plan: KeyPathPlan?
        /// Nil for a key path whose values are not kept (see ``MarkupSetter/make(for:)``).
        let setter: MarkupSetter?

        init(_ plan: KeyPathPlan?, setter: MarkupSetter?) {
            self.plan = plan
            self.setter = setter
        }
    }

    /// The plan for the attribute name numbered `number`, when it has been asked for.
    func knownPlan(_ number: Int) -> AttributePlan? {
        number < plans.count ? plans[number] : nil
    }

    /// The plan for `keyPath` (the attribute name numbered `number`) from `object`, of the type.
    func plan(for keyPath: String, number: Int, of object: any AMCCodable) -> AttributePlan {
        if number < plans.count, let known = plans[number] { return known }
        let plan = KeyPathPlan.plan(for: Swift.type(of: object as Any), keyPath: keyPath, isKey: false)
        let made = AttributePlan(plan, setter: isClass ? plan.flatMap { MarkupSetter.make(for: $0) } : nil)
        if number >= plans.count { plans += Array(repeating: nil, count: number + 1 - plans.count) }
        plans[number] = made
        return made
    }

    /// Where children are appended without the type's hook: the offset of the array of objects
    /// the hook appends to, once the hook is known to be the default one (see
    /// ``MarkupContent/objectArrayOffset(appendedToBy:key:)``); nil until then, or when it is not.
    private(set) var contentOffset: Int?
    /// Whether ``contentOffset`` has been asked for.
    private var askedContentOffset = false
    /// The classes of the children the hook has taken: the array holds their instances.
    @exclusivity(unchecked) private var takenChildren: [ObjectIdentifier] = []
    /// A content array takes children of a few classes.
    private static let maximumTakenChildren = 16

    /// Whether the content array takes objects of `type` (see ``contentOffset``).
    func takes(_ type: AnyObject.Type) -> Bool {
        takenChildren.contains(ObjectIdentifier(type))
    }

    /// Notes that the hook of an object of this type, `objectType`, took a child of class `type`.
    func tookChild(of type: AnyObject.Type, by objectType: Any.Type) {
        if !askedContentOffset {
            askedContentOffset = true
            contentOffset = MarkupContent.objectArrayOffset(appendedToBy: objectType, key: element?.contentKey)
        }
        if contentOffset != nil, takenChildren.count < Self.maximumTakenChildren, !takes(type) {
            takenChildren.append(ObjectIdentifier(type))
        }
    }

    /// A property element's: no type, no element.
    static var property: MarkupTypeInfo { MarkupTypeInfo(element: nil, isClass: false) }

    private init(element: Element?, isClass: Bool, didBuildDoesNothing: Bool = false) {
        self.element = element
        self.isClass = isClass
        self.didBuildDoesNothing = didBuildDoesNothing
        takesUntypedElements = element?.elements.isEmpty == false
    }

    convenience init(_ type: any AMCCodable.Type) {
        func element<Element: AMCMarkupElement>(_: Element.Type) -> MarkupTypeInfo.Element {
            // An object is seen as the class it is with no cast: the info is its exact type's.
            let view: (any AMCCodable) -> any AMCMarkupElement =
                RuntimeAccess.shape(of: Element.self) == .class
                ? { RuntimeAccess.instance(Element.self, of: RuntimeAccess.object(ofAny: $0)!) } : { $0 as! Element }
            return MarkupTypeInfo.Element(
                textKey: Element.amcMarkupTextKey, contentKey: Element.amcMarkupContentKey, elements: Element.amcMarkupElements,
                view: view)
        }
        self.init(
            element: (type as? any AMCMarkupElement.Type).map { element($0) }, isClass: type is AnyObject.Type,
            didBuildDoesNothing: MarkupContent.didBuildDoesNothing(for: type))
    }
}
