import Foundation

/// Writes an object tree as markup that ``AMCMarkup`` builds back into an equal tree: each
/// object an element named by its class, scalar and struct properties attributes (in declaration
/// order, in string coding's forms), the content key's children child elements, other object
/// properties property elements (`<Table.header>`), the text key text. An object met a second
/// time is written as a reference to the first (`amc:id="object1"`, `header="$object1"`).
///
/// ```swift
/// let text = try AMCMarkupWriter().markup(of: column)
/// let again = try AMCMarkup(string: text).build(Column.self)   // equal to column
/// ```
///
/// What markup cannot hold (a dictionary, an array of scalars, an unregistered class) is an
/// error naming the property. `weak` and `unowned` properties are left out: markup sets them
/// through its hooks (a child's parent, say), as it builds.
public struct AMCMarkupWriter {
    /// The archiver whose registry names the elements' types.
    public var archiver = AMCArchiver()
    /// Whether a value equal to a new instance's (`init()`) is left out.
    public var omitsDefaults = true
    /// Whether properties named `id`, `class` or `factory` may be written (``AMCMarkupReservedNames/prefixed``,
    /// for a builder of the same setting); under ``AMCMarkupReservedNames/plain`` they are an error.
    public var reservedAttributes = AMCMarkupReservedNames.plain

    /// A writer with the shared registry, leaving out default values.
    ///
    /// ```swift
    /// var writer = AMCMarkupWriter()
    /// writer.omitsDefaults = false   // every property, defaults too
    /// ```
    public init() {}

    /// The markup of the tree below `root`.
    ///
    /// ```swift
    /// print(try AMCMarkupWriter().markup(of: column))
    /// // <?xml version="1.0" encoding="UTF-8"?>
    /// // <Column spacing="4">
    /// //     <Label text="CVS"/>
    /// // </Column>
    /// ```
    public func markup(of root: any AMCCodable) throws -> String {
        var writing = MarkupWriting(archiver: archiver, omitsDefaults: omitsDefaults, reservedAttributes: reservedAttributes)
        writing.countShared(root)
        _ = writing.claim(root)
        try writing.element(root, name: nil, path: "", indent: "")
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + writing.output
    }

    /// Writes the markup of `root` to `url`, atomically: a failed write leaves the file that
    /// was there.
    ///
    /// ```swift
    /// try AMCMarkupWriter().write(column, to: url)
    /// ```
    public func write(_ root: any AMCCodable, to url: URL) throws {
        let text = try markup(of: root)
        try AMCError.naming(url) { try AtomicFile.write(Array(text.utf8), to: url) }
    }
}

/// One markup writing: the text so far and the objects met.
struct MarkupWriting {
    let archiver: AMCArchiver
    let omitsDefaults: Bool
    let reservedAttributes: AMCMarkupReservedNames
    var output = ""
    /// How often each object appears in the tree; those met more than once get an id.
    private var appearances: [ObjectIdentifier: Int] = [:]
    /// The objects given their element so far; every other appearance refers to it.
    private var claimed = Set<ObjectIdentifier>()
    /// The ids of the shared objects claimed so far.
    private var ids: [ObjectIdentifier: String] = [:]
    /// A new instance of each type, for the defaults.
    private var fresh: [ObjectIdentifier: any AMCCodable] = [:]

    init(archiver: AMCArchiver, omitsDefaults: Bool, reservedAttributes: AMCMarkupReservedNames = .plain) {
        self.archiver = archiver
        self.omitsDefaults = omitsDefaults
        self.reservedAttributes = reservedAttributes
    }

    /// Counts the appearances of each object below `object`, once each way in.
    mutating func countShared(_ object: any AMCCodable) {
        if let identity = RuntimeAccess.identity(ofAny: object) {
            appearances[identity, default: 0] += 1
            guard appearances[identity] == 1 else { return }
        }
        for field in TypePlan.of(Swift.type(of: object as Any)).fields where field.isWritable {
            for child in Self.objects(in: unwrappedValue(field.value(ofAny: object))) { countShared(child) }
        }
    }

    /// Gives `object` its one element here, unless it has one elsewhere already (false); a
    /// shared object gets its id.
    mutating func claim(_ object: any AMCCodable) -> Bool {
        guard let identity = RuntimeAccess.identity(ofAny: object) else { return true }
        guard claimed.insert(identity).inserted else { return false }
        if appearances[identity, default: 0] > 1 { ids[identity] = "object\(ids.count + 1)" }
        return true
    }

    /// The objects a field's value holds: itself, or an array's elements.
    private static func objects(in value: Any?) -> [any AMCCodable] {
        if let object = value as? any AMCCodable { return [object] }
        if let array = value as? [Any] { return array.compactMap { $0 as? any AMCCodable } }
        return []
    }

    /// Writes `object` as an element (as `<name>` when given, else its class name).
    mutating func element(_ object: any AMCCodable, name: String?, path: String, indent: String) throws {
        let type = Swift.type(of: object)
        let className = type.amcClassName
        let elementPath = path + "/" + className
        guard case let .type(registered) = archiver.registry.lookup(className), registered == type else {
            throw AMCError(
                .markupFault(reason: "\(AMC.unqualifiedName(of: type)) is not registered, so markup cannot name it"),
                keyPath: elementPath)
        }
        let markupType = type as? any AMCMarkupElement.Type
        let contentKey = markupType?.amcMarkupContentKey
        let textKey = markupType?.amcMarkupTextKey
        let defaults: (any AMCCodable)? = freshInstance(of: type)
        // Whether a value differs from a new instance's is asked whether or not defaults are left out.
        var attributes: [(String, String)] = []
        var text: String?
        var children: [any AMCCodable] = []
        var propertyElements: [(key: String, objects: [any AMCCodable])] = []
        if let identity = RuntimeAccess.identity(ofAny: object), let id = ids[identity] { attributes.append(("amc:id", id)) }
        for field in TypePlan.of(type).fields where field.isStrong {
            let place = "\(AMC.unqualifiedName(of: type)).\(field.name)"
            let value = unwrappedValue(field.value(ofAny: object))
            let objects = Self.objects(in: value)
            guard field.isWritable else {
                // A `let` is written by no markup: it must be what a new instance has.
                try checkUnchanged(field, value: value, of: defaults, place: place, elementPath: elementPath)
                continue
            }
            if !objects.isEmpty || field.kind.holdsObjects {
                if let defaults, !Self.objects(in: unwrappedValue(field.value(ofAny: defaults))).isEmpty {
                    // A property element replaces what a new instance holds; children add to it.
                    if field.name != contentKey, value is any AppendableArray {
                        if objects.isEmpty { propertyElements.append((field.name, [])) }
                    } else if field.name == contentKey || objects.isEmpty {
                        throw AMCError(
                            .markupFault(reason: "\(place) differs from a new instance's objects in a way markup cannot write"),
                            keyPath: elementPath + "/" + field.name)
                    }
                }
                if let only = objects.first, value is any AMCCodable, !claim(only),
                    let identity = RuntimeAccess.identity(ofAny: only), let id = ids[identity]
                {
                    attributes.append((field.name, "$" + id))
                    continue
                }
                for object in objects.dropFirst(value is any AMCCodable ? 1 : 0) where !claim(object) {
                    throw AMCError(
                        .markupFault(reason: "\(place) holds an object that appears elsewhere in the tree: markup holds it once"),
                        keyPath: elementPath + "/" + field.name)
                }
                if field.name == contentKey {
                    children = objects
                } else if !objects.isEmpty, !(omitsDefaults && isDefault(objects, of: field, in: defaults)) {
                    propertyElements.append((field.name, objects))
                }
                continue
            }
            let written = try scalarText(value, field: field, place: place, elementPath: elementPath)
            let fallback = try defaults.flatMap {
                try scalarText(unwrappedValue(field.value(ofAny: $0)), field: field, place: place, elementPath: elementPath)
            }
            if omitsDefaults, fallback == written { continue }
            guard
                let string = try written
                    ?? blankForNil(field: field, place: place, elementPath: elementPath, needed: fallback != nil)
            else { continue }
            try Self.checkCharacters(string, place: place, elementPath: elementPath + "/@" + field.name)
            if field.name == textKey {
                text = string
            } else {
                if reservedAttributes == .plain, ["id", "class", "factory"].contains(field.name) {
                    throw AMCError(
                        .markupFault(
                            reason: "\(place) would be written as \(field.name)=, the builder's own attribute: write and build "
                                + "with reservedAttributes = .prefixed"), keyPath: elementPath + "/@" + field.name)
                }
                attributes.append((field.name, Self.guarded(string)))
            }
        }
        output += indent + "<" + (name ?? className)
        for (name, value) in attributes { output += " \(name)=\"\(Self.escaped(value, attribute: true))\"" }
        guard text != nil || !children.isEmpty || !propertyElements.isEmpty else {
            output += "/>\n"
            return
        }
        output += ">"
        if let text {
            let guarded = Self.guarded(text)
            let trimmed = guarded.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed == guarded, !trimmed.isEmpty {
                output += Self.escaped(guarded, attribute: false)
            } else {
                guard !guarded.contains("]]>") else {
                    throw AMCError(
                        .markupFault(reason: "markup cannot hold text with white space at its ends and \"]]>\" in it"),
                        keyPath: elementPath + "/" + (textKey ?? ""))
                }
                output += "<![CDATA[" + guarded + "]]>"
            }
        }
        if !children.isEmpty || !propertyElements.isEmpty {
            output += "\n"
            for (key, objects) in propertyElements {
                guard !objects.isEmpty else {
                    output += indent + "    <\(className).\(key)/>\n"
                    continue
                }
                output += indent + "    <\(className).\(key)>\n"
                for object in objects {
                    try element(object, name: nil, path: elementPath + "/\(className).\(key)", indent: indent + "        ")
                }
                output += indent + "    </\(className).\(key)>\n"
            }
            for child in children { try element(child, name: nil, path: elementPath, indent: indent + "    ") }
            output += indent
        }
        output += "</\(name ?? className)>\n"
    }

    /// Throws unless the `let` field's `value` writes as a new instance's does.
    private func checkUnchanged(
        _ field: FieldPlan, value: Any?, of defaults: (any AMCCodable)?, place: String, elementPath: String
    )
        throws
    {
        guard let defaults else { return }
        let objects = Self.objects(in: value)
        let unchanged: Bool
        if !objects.isEmpty || field.kind.holdsObjects {
            unchanged =
                objects.isEmpty
                ? Self.objects(in: unwrappedValue(field.value(ofAny: defaults))).isEmpty
                : isDefault(objects, of: field, in: defaults)
        } else {
            let fresh = unwrappedValue(field.value(ofAny: defaults))
            unchanged =
                (try? scalarText(value, field: field, place: place, elementPath: elementPath))
                == (try? scalarText(fresh, field: field, place: place, elementPath: elementPath))
        }
        guard unchanged else {
            throw AMCError(
                .markupFault(reason: "\(place) is a let that differs from a new instance's, which markup cannot set"),
                keyPath: elementPath + "/@" + field.name)
        }
    }

    /// Throws for text XML cannot hold: control characters other than tab, line feed and
    /// carriage return, and U+FFFE and U+FFFF.
    private static func checkCharacters(_ text: String, place: String, elementPath: String) throws {
        for scalar in text.unicodeScalars
        where (scalar.value < 0x20 && !"\t\n\r".unicodeScalars.contains(scalar)) || scalar.value == 0xFFFE
            || scalar.value == 0xFFFF
        {
            throw AMCError(
                .markupFault(
                    reason: "\(place) holds U+\(String(scalar.value, radix: 16, uppercase: true)), which XML cannot hold"),
                keyPath: elementPath)
        }
    }

    /// Whether `objects`, the value of `field`, write as a new instance's do, and are nowhere
    /// else in the tree: left out, a new instance has them.
    private func isDefault(_ objects: [any AMCCodable], of field: FieldPlan, in defaults: (any AMCCodable)?) -> Bool {
        guard let defaults else { return false }
        let fresh = Self.objects(in: unwrappedValue(field.value(ofAny: defaults)))
        guard fresh.count == objects.count, objects.allSatisfy(isUnshared) else { return false }
        var ours = MarkupWriting(archiver: archiver, omitsDefaults: true, reservedAttributes: reservedAttributes)
        var theirs = MarkupWriting(archiver: archiver, omitsDefaults: true, reservedAttributes: reservedAttributes)
        do {
            for object in objects { try ours.element(object, name: nil, path: "", indent: "") }
            for object in fresh { try theirs.element(object, name: nil, path: "", indent: "") }
        } catch {
            return false
        }
        return ours.output == theirs.output
    }

    /// Whether `object` and every object below it appear once in the tree.
    private func isUnshared(_ object: any AMCCodable) -> Bool {
        if let identity = RuntimeAccess.identity(ofAny: object), appearances[identity, default: 0] > 1 { return false }
        return TypePlan.of(Swift.type(of: object as Any)).fields.allSatisfy { field in
            !field.isWritable || Self.objects(in: unwrappedValue(field.value(ofAny: object))).allSatisfy(isUnshared)
        }
    }

    /// The attribute text of a scalar field's value; nil for a nil optional; throws for a value
    /// markup has no form for.
    private func scalarText(_ value: Any?, field: FieldPlan, place: String, elementPath: String) throws -> String? {
        let codec: ScalarCodec
        switch field.kind {
        case let .scalar(scalar), let .optional(_, .scalar(scalar)): codec = scalar
        default:
            throw AMCError(
                .markupFault(
                    reason: "\(place) is a \(AMC.unqualifiedName(of: field.type)), which markup cannot hold as an attribute"),
                keyPath: elementPath + "/@" + field.name)
        }
        guard let value else { return nil }
        guard let scalar = codec.encode(value), let text = scalar.keyText else {
            throw AMCError(
                .markupFault(reason: "\(place) has a value markup cannot hold as an attribute"),
                keyPath: elementPath + "/@" + field.name)
        }
        return text
    }

    /// What sets the optional `field` to nil, written where a new instance has a value (when
    /// `needed`): a blank string, for optionals of what cannot be blank; throws for the others.
    private func blankForNil(field: FieldPlan, place: String, elementPath: String, needed: Bool) throws -> String? {
        guard needed else { return nil }
        guard case let .optional(_, .scalar(codec)) = field.kind, (try? codec.decode(.string(""), archiver.context)) == nil else {
            throw AMCError(
                .markupFault(reason: "\(place) is nil where a new instance has a value, and markup cannot set it to nil"),
                keyPath: elementPath + "/@" + field.name)
        }
        return ""
    }

    private mutating func freshInstance(of type: any AMCCodable.Type) -> (any AMCCodable)? {
        if let known = fresh[ObjectIdentifier(type)] { return known }
        let made = type.init()
        fresh[ObjectIdentifier(type)] = made
        return made
    }

    /// `text` with a leading `@`, `$` or `^` escaped by `^`, as markup reads it.
    private static func guarded(_ text: String) -> String {
        guard let first = text.first, "@$^".contains(first) else { return text }
        return "^" + text
    }

    /// `text` with what XML gives a meaning escaped; in an attribute, white space other than a
    /// space too (XML reads it as a space).
    static func escaped(_ text: String, attribute: Bool) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"" where attribute: escaped += "&quot;"
            case "\n" where attribute: escaped += "&#10;"
            case "\t" where attribute: escaped += "&#9;"
            case "\r": escaped += "&#13;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

extension ValueKind {
    /// Whether a value of this kind is, or holds, objects.
    var holdsObjects: Bool {
        switch self {
        case .object, .optional(_, .object), .sequence(_, .object), .optional(_, .sequence(_, .object)): true
        default: false
        }
    }
}

extension FieldPlan {
    /// The field's value in `instance`, known only as `any AMCCodable`.
    func value(ofAny instance: any AMCCodable) -> Any {
        func value<Root: AMCCodable>(_ instance: Root) -> Any { self.value(in: instance) }
        return value(instance)
    }
}
