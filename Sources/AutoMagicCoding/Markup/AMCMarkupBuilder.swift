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
        // A first build into a new instance finds every fault before `root` is touched.
        var trial = MarkupBuild(markup: self, builder: builder, owner: owner)
        _ = try trial.run(expected: Root.self, into: Swift.type(of: root).init(), binds: false)
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
    /// `$name` attribute values, to resolve once the tree exists.
    private var references: [(object: any AMCCodable, keyPath: String, name: String, context: AMCMarkupContext)] = []
    /// The class objects built, children before parents, for ``AMCMarkupElement/amcDidBuildMarkup(_:)``.
    private var built: [(object: any AMCMarkupElement, context: AMCMarkupContext)] = []
    /// The named styles: the builder's stylesheet's, then each `<?properties?>` met so far.
    private var styles: [String: [String: Any]]
    private static let maximumFaults = 100

    init(markup: AMCMarkup, builder: AMCMarkupBuilder, owner: (any AMCCodable & AnyObject)?) {
        self.markup = markup
        self.builder = builder
        self.owner = owner
        styles = builder.stylesheet?.styles ?? [:]
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
                mergeProperties(data, at: node)
            case .element:
                object = element(index, path: "", siblingIndex: nil, expected: expected, into: root)
            default:
                break
            }
        }
        if faults.isEmpty { resolveReferences() }
        if faults.isEmpty { bindIds(binds: binds) }
        if faults.isEmpty {
            for (object, context) in built {
                var element = object
                do { try element.amcDidBuildMarkup(context) } catch { fault(error, at: context) }
            }
        }
        guard faults.isEmpty else { throw AMCError(.invalidMarkup(errors: faults)) }
        return object
    }

    // MARK: - Elements

    /// The object of the element at `index` with its subtree, or nil when it has faults
    /// (recorded) or is no object (a property element, an untyped one).
    private mutating func element(
        _ index: Int, path parentPath: String, siblingIndex: Int?, expected: (any AMCCodable.Type)?,
        into root: (any AMCCodable & AnyObject)?
    ) -> (any AMCCodable)? {
        let node = markup.nodes[index]
        guard case let .element(name, attributes) = node.content else { return nil }
        let path = parentPath + "/" + name + (siblingIndex.map { "[\($0)]" } ?? "")
        let context = self.context(of: node, path: path)
        guard var object = instantiate(name, attributes: attributes, expected: expected, into: root, context: context) else {
            return nil
        }
        applyStyles(attributes, to: &object, path: path)
        setAttributes(attributes, of: &object, path: path)
        buildChildren(of: index, object: &object, path: path)
        if let element = object as? any AMCMarkupElement {
            if RuntimeAccess.identity(ofAny: object) != nil {
                built.append((element, context))
            } else {
                // A struct is a value: its parent keeps a copy, so it is told now.
                var element = element
                do { try element.amcDidBuildMarkup(context) } catch { fault(error, at: context) }
                object = element
            }
        }
        if let id = attributes.first(where: { $0.name == builder.reservedAttributes.attribute("id") }) {
            record(id: id, of: object, context: self.context(of: id, in: node, path: path))
        }
        return object
    }

    /// A new instance for the element `name`: of the registered type it names, by its factory
    /// or `init()`; `root` itself for the root element of `build(into:)`.
    private mutating func instantiate(
        _ name: String, attributes: [MarkupAttribute], expected: (any AMCCodable.Type)?, into root: (any AMCCodable & AnyObject)?,
        context: AMCMarkupContext
    ) -> (any AMCCodable)? {
        if let root {
            guard name == "root" || name == Swift.type(of: root).amcClassName else {
                fault(
                    "the root element is <\(name)>; building into a \(AMC.unqualifiedName(of: Swift.type(of: root))) takes <root>",
                    at: context)
                return nil
            }
            return root
        }
        guard name != "root" else {
            fault("<root> is for build(into:), which builds into an object given", at: context)
            return nil
        }
        let type: any AMCCodable.Type
        switch builder.archiver.registry.lookup(name) {
        case let .type(found):
            type = found
        case .missing:
            let nearest = TypePlan.nearest(to: name, among: builder.archiver.registry.names())
            fault("no registered type is named \(name)" + (nearest.map { " — did you mean \($0)?" } ?? ""), at: context)
            return nil
        case let .ambiguous(types):
            fault(.ambiguousClassName(className: name, typeNames: types.map(AMCRegistry.fullName)), at: context)
            return nil
        }
        func isExpected<Expected>(_: Expected.Type) -> Bool { type is Expected.Type }
        if let expected, !isExpected(expected) {
            fault(.unrelatedClass(className: name, expected: AMC.unqualifiedName(of: expected)), at: context)
            return nil
        }
        let factoryName = builder.reservedAttributes.attribute("factory")
        guard let factory = attributes.first(where: { $0.name == factoryName }) else { return type.init() }
        guard let element = type as? any AMCMarkupElement.Type else {
            fault("<\(name)> has no factories (it is no AMCMarkupElement)", at: self.context(of: factory, in: context))
            return nil
        }
        if let made = element.amcMarkupFactory(factory.value) { return made }
        let names = element.amcMarkupFactoryNames
        let known = names.isEmpty ? "it has none" : "it has \(names.joined(separator: ", "))"
        fault("<\(name)> has no factory \"\(factory.value)\": \(known)", at: self.context(of: factory, in: context))
        return nil
    }

    // MARK: - Attributes

    /// Applies the styles `class="a, b"` names, in order.
    private mutating func applyStyles(_ attributes: [MarkupAttribute], to object: inout any AMCCodable, path: String) {
        let className = builder.reservedAttributes.attribute("class")
        guard let attribute = attributes.first(where: { $0.name == className }) else { return }
        let context = AMCMarkupContext(
            file: markup.files[0], line: Int(attribute.line), column: Int(attribute.column), elementPath: path + "/@" + className)
        for name in attribute.value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let style = styles[name] else {
                let nearest = TypePlan.nearest(to: name, among: Set(styles.keys)).map { " — did you mean \"\($0)\"?" } ?? ""
                fault("no style is named \"\(name)\"\(nearest)", at: context)
                continue
            }
            for (keyPath, value) in style.sorted(by: { $0.key < $1.key }) where keyPath != "extends" {
                do {
                    try Self.set(value, keyPath: keyPath, on: &object, archiver: builder.archiver)
                } catch {
                    fault(error, at: context)
                }
            }
        }
    }

    /// Sets each attribute that is not the builder's, by key path.
    private mutating func setAttributes(_ attributes: [MarkupAttribute], of object: inout any AMCCodable, path: String) {
        let reserved = builder.reservedAttributes
        for attribute in attributes {
            let context = AMCMarkupContext(
                file: markup.files[0], line: Int(attribute.line), column: Int(attribute.column),
                elementPath: path + "/@" + attribute.name)
            if ["id", "class", "factory"].contains(where: { reserved.attribute($0) == attribute.name }) {
                if reserved == .plain, TypePlan.of(Swift.type(of: object as Any)).field(named: attribute.name) != nil {
                    fault(
                        "\(attribute.name) is the builder's, and also a property of \(AMC.unqualifiedName(of: Swift.type(of: object as Any))): "
                            + "build with reservedAttributes = .prefixed (amc:\(attribute.name))", at: context)
                }
                continue
            }
            guard let value = resolved(attribute.value, context: context) else { continue }
            if let name = value.reference {
                references.append((object, attribute.name, name, context))
                continue
            }
            do {
                try Self.set(value.text, keyPath: attribute.name, on: &object, archiver: builder.archiver)
            } catch {
                fault(error, at: context)
            }
        }
    }

    /// What an attribute's value (or text) stands for: `@key` a string of the builder's,
    /// `$name` a reference, `^` escaping a first `@`, `$` or `^`; nil (a fault recorded) for a
    /// missing string.
    private mutating func resolved(_ value: String, context: AMCMarkupContext) -> (text: String, reference: String?)? {
        switch value.first {
        case "@":
            let key = String(value.dropFirst())
            guard let string = builder.strings?[key] else {
                fault("no string \"\(key)\" among the builder's strings", at: context)
                return nil
            }
            return (string, nil)
        case "$": return ("", String(value.dropFirst()))
        case "^": return (String(value.dropFirst()), nil)
        default: return (value, nil)
        }
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

    // MARK: - Children

    /// Builds the children of the element at `index` in document order, handing each to
    /// `object` at its end tag; text and instructions go to `object`'s hooks.
    private mutating func buildChildren(of index: Int, object: inout any AMCCodable, path: String) {
        let end = markup.nodes[index].end
        var childIndex = index + 1
        var sameNamed: [String: Int] = [:]
        var child = childIndex
        while child < end {
            if case let .element(name, _) = markup.nodes[child].content { sameNamed[name, default: 0] += 1 }
            child = markup.nodes[child].end
        }
        var seen: [String: Int] = [:]
        var skipping: [Bool] = []  // for each open <?if?>: whether its branch is skipped
        while childIndex < end {
            let node = markup.nodes[childIndex]
            defer { childIndex = node.end }
            let context = self.context(of: node, path: path)
            if case let .instruction(target, data) = node.content, ["if", "else", "end"].contains(target) {
                switch target {
                case "if":
                    let condition = data ?? ""
                    let holds =
                        condition.hasPrefix("!")
                        ? !builder.conditions.contains(String(condition.dropFirst())) : builder.conditions.contains(condition)
                    skipping.append((skipping.last ?? false) || !holds)
                case "else":
                    let outer = skipping.count > 1 ? skipping[skipping.count - 2] : false
                    skipping[skipping.count - 1] = outer || !skipping[skipping.count - 1]
                default:
                    skipping.removeLast()
                }
                continue
            }
            if skipping.last == true { continue }
            switch node.content {
            case let .element(name, attributes):
                seen[name, default: 0] += 1
                let siblingIndex = (sameNamed[name] ?? 0) > 1 ? seen[name] : nil
                if name.contains(".") {
                    propertyElement(childIndex, name: name, of: &object, path: path, siblingIndex: siblingIndex)
                } else if let element = object as? any AMCMarkupElement, Swift.type(of: element).amcMarkupElements.contains(name)
                {
                    let childPath = path + "/" + name + (siblingIndex.map { "[\($0)]" } ?? "")
                    untypedElement(name, attributes: attributes, at: childIndex, of: &object, path: childPath)
                } else if let built = element(childIndex, path: path, siblingIndex: siblingIndex, expected: nil, into: nil) {
                    let childContext = self.context(of: node, path: path + "/" + name + (siblingIndex.map { "[\($0)]" } ?? ""))
                    append(built, to: &object, context: childContext)
                }
            case let .text(text, isCDATA):
                setText(isCDATA ? text : text.trimmingCharacters(in: .whitespacesAndNewlines), of: &object, context: context)
            case let .instruction(target, data):
                if target == "properties" {
                    mergeProperties(data, at: node)
                } else {
                    instruction(target, data: data, to: &object, context: context)
                }
            }
        }
    }

    /// `<Parent.property>`: its child elements set `property` of the parent (appended, for an
    /// array property).
    private mutating func propertyElement(
        _ index: Int, name: String, of object: inout any AMCCodable, path: String, siblingIndex: Int?
    ) {
        let node = markup.nodes[index]
        let elementPath = path + "/" + name + (siblingIndex.map { "[\($0)]" } ?? "")
        let context = self.context(of: node, path: elementPath)
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let ownerType = Swift.type(of: object as Any)
        guard parts.count == 2, parts[0] == (ownerType as? any AMCCodable.Type)?.amcClassName else {
            fault(
                "<\(name)> sets a property of its parent, <\(AMC.unqualifiedName(of: ownerType))>: name it <\(AMC.unqualifiedName(of: ownerType)).property>",
                at: context)
            return
        }
        let key = parts[1]
        guard let field = TypePlan.of(ownerType).field(named: key), field.isWritable else {
            let nearest = TypePlan.of(ownerType).nearestKey(to: key)
            fault(.unknownStyleKey(key: key, typeName: AMC.unqualifiedName(of: ownerType), suggestion: nearest), at: context)
            return
        }
        var children: [any AMCCodable] = []
        var child = index + 1
        while child < node.end {
            switch markup.nodes[child].content {
            case .element:
                // A child with faults has them recorded; the others are still checked.
                if let built = element(child, path: elementPath, siblingIndex: nil, expected: nil, into: nil) {
                    children.append(built)
                }
            default:
                fault("<\(name)> holds elements only", at: self.context(of: markup.nodes[child], path: elementPath))
            }
            child = markup.nodes[child].end
        }
        let current = unwrappedValue(field.value(in: object))
        var value: Any
        if var array = current as? any AppendableArray {
            for built in children {
                guard let appended = array.appending(built) as? any AppendableArray else {
                    fault(
                        .typeMismatch(
                            expected: "what \(name) holds", found: "a \(AMC.unqualifiedName(of: Swift.type(of: built)))"),
                        at: context)
                    return
                }
                array = appended
            }
            value = array
        } else {
            guard children.count == 1, let only = children.first else {
                if children.count > 1 { fault("<\(name)> holds one element, for one \(key)", at: context) }
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

    /// A child element its parent's ``AMCMarkupElement/amcMarkupElements`` lists.
    private mutating func untypedElement(
        _ name: String, attributes: [MarkupAttribute], at index: Int, of object: inout any AMCCodable, path: String
    ) {
        let node = markup.nodes[index]
        let context = self.context(of: node, path: path)
        if markup.nodes[(index + 1)..<node.end].contains(where: { if case .element = $0.content { true } else { false } }) {
            fault("<\(name)> is handed to its parent with its attributes; it holds no elements", at: context)
        }
        guard var element = object as? any AMCMarkupElement else { return }
        do {
            try element.amcProcessMarkupElement(name, attributes: attributes.map { ($0.name, $0.value) }, context)
            object = element
        } catch {
            fault(error, at: context)
        }
    }

    /// Hands a complete child to its parent.
    private mutating func append(_ child: any AMCCodable, to object: inout any AMCCodable, context: AMCMarkupContext) {
        guard var element = object as? any AMCMarkupElement else {
            fault(
                "<\(AMC.unqualifiedName(of: Swift.type(of: object as Any)))> cannot hold children (it is no AMCMarkupElement)",
                at: context)
            return
        }
        do {
            try element.amcAppendMarkupChild(child, context)
            object = element
        } catch {
            fault(error, at: context)
        }
    }

    /// Sets the text key from text content.
    private mutating func setText(_ text: String, of object: inout any AMCCodable, context: AMCMarkupContext) {
        let typeName = AMC.unqualifiedName(of: Swift.type(of: object as Any))
        guard let key = (Swift.type(of: object as Any) as? any AMCMarkupElement.Type)?.amcMarkupTextKey else {
            fault("<\(typeName)> takes no text (it has no amcMarkupTextKey)", at: context)
            return
        }
        guard let value = resolved(text, context: context) else { return }
        if let name = value.reference {
            references.append((object, key, name, context))
            return
        }
        do {
            try Self.set(value.text, keyPath: key, on: &object, archiver: builder.archiver)
        } catch {
            fault(error, at: context)
        }
    }

    /// Hands a processing instruction to the element it stands in.
    private mutating func instruction(_ target: String, data: String?, to object: inout any AMCCodable, context: AMCMarkupContext)
    {
        guard var element = object as? any AMCMarkupElement else {
            fault(
                "<\(AMC.unqualifiedName(of: Swift.type(of: object as Any)))> takes no instruction <?\(target)?> (it is no AMCMarkupElement)",
                at: context)
            return
        }
        do {
            try element.amcProcessMarkupInstruction(target, data: data, context)
            object = element
        } catch {
            fault(error, at: context)
        }
    }

    /// Merges `<?properties {JSON}?>` into the named styles, per key; later ones win.
    private mutating func mergeProperties(_ data: String?, at node: MarkupNode) {
        let context = self.context(of: node, path: "")
        do {
            guard let json = try JSONSerialization.jsonObject(with: Data((data ?? "").utf8)) as? [String: Any] else {
                throw context.error(.typeMismatch(expected: "a JSON object of named styles", found: "other JSON"))
            }
            var declared = styles
            for (name, entries) in json {
                guard let entries = entries as? [String: Any] else {
                    throw context.error(
                        .typeMismatch(expected: "a dictionary for style \"\(name)\"", found: ArchiveValue.literal(entries)))
                }
                declared[name, default: [:]].merge(entries) { _, new in new }
            }
            styles = try AMCStylesheet(dictionary: ["styles": declared]).styles
        } catch {
            fault(error, at: context)
        }
    }

    // MARK: - After the tree

    private mutating func record(id: MarkupAttribute, of object: any AMCCodable, context: AMCMarkupContext) {
        if let first = ids[id.value] {
            fault(
                "the id \"\(id.value)\" is used twice: at line \(first.context.line), column \(first.context.column) and here",
                at: context)
            return
        }
        ids[id.value] = (object, context)
    }

    /// Sets each `$name` attribute: to the object with that id, else the owner's value at the
    /// key path `name`.
    private mutating func resolveReferences() {
        for reference in references {
            var target: Any?
            if let found = ids[reference.name] {
                target = found.object
            } else if let owner {
                do { target = try owner.value(forKeyPath: reference.name) } catch {
                    fault(error, at: reference.context)
                    continue
                }
            } else {
                fault("$\(reference.name) names no id in the document, and there is no owner", at: reference.context)
                continue
            }
            var object = reference.object
            do {
                try Self.set(target as Any, keyPath: reference.keyPath, on: &object, archiver: builder.archiver)
            } catch {
                fault(error, at: reference.context)
            }
        }
    }

    /// Checks every id against the owner's properties, then (when `binds` and nothing is wrong)
    /// sets them.
    private mutating func bindIds(binds: Bool) {
        guard let owner else { return }
        let ownerType = Swift.type(of: owner)
        let plan = TypePlan.of(ownerType)
        var bindings: [(FieldPlan, any AMCCodable)] = []
        for (id, (object, context)) in ids.sorted(by: { $0.key < $1.key }) {
            guard let field = plan.field(named: id), field.isStrong else {
                fault(
                    .unknownStyleKey(key: id, typeName: AMC.unqualifiedName(of: ownerType), suggestion: plan.nearestKey(to: id)),
                    at: context)
                continue
            }
            func accepts<T>(_: T.Type) -> Bool { object is T }
            guard field.isWritable, accepts(field.type) else {
                fault(
                    .typeMismatch(
                        expected:
                            "an object \(AMC.unqualifiedName(of: ownerType)).\(id) holds (\(AMC.unqualifiedName(of: field.type)))",
                        found: "a \(AMC.unqualifiedName(of: Swift.type(of: object)))"), at: context)
                continue
            }
            bindings.append((field, object))
        }
        guard binds, faults.isEmpty else { return }
        var target: any AMCCodable & AnyObject = owner
        for (field, object) in bindings { _ = field.store(object, in: &target) }
    }

    // MARK: - Places and faults

    private func context(of node: MarkupNode, path: String) -> AMCMarkupContext {
        AMCMarkupContext(file: markup.files[node.file], line: Int(node.line), column: Int(node.column), elementPath: path)
    }

    private func context(of attribute: MarkupAttribute, in node: MarkupNode, path: String) -> AMCMarkupContext {
        AMCMarkupContext(
            file: markup.files[node.file], line: Int(attribute.line), column: Int(attribute.column),
            elementPath: path + "/@" + attribute.name)
    }

    private func context(of attribute: MarkupAttribute, in context: AMCMarkupContext) -> AMCMarkupContext {
        AMCMarkupContext(
            file: context.file, line: Int(attribute.line), column: Int(attribute.column),
            elementPath: context.elementPath + "/@" + attribute.name)
    }

    private mutating func fault(_ reason: String, at context: AMCMarkupContext) {
        fault(context.error(reason), at: context)
    }

    private mutating func fault(_ kind: AMCError.Kind, at context: AMCMarkupContext) {
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
