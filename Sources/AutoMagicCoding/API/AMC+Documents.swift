import Foundation

extension AMC {
    /// Converts a document from any of the three formats (told from its bytes) to `format`, as
    /// `plutil -convert` does: every value is kept, nothing is decoded into objects, so no class
    /// needs registering.
    ///
    /// ```swift
    /// let xml = try AMC.convert(jsonData, to: .xmlPropertyList)
    /// let json = try AMC.convert(plistData, to: .json, textForDatesAndData: true)  // dates as ISO 8601 strings
    /// ```
    ///
    /// JSON has no dates and no data: a property list holding either throws ``AMCError`` naming
    /// its key path, as `plutil` refuses, unless `textForDatesAndData` asks for them as text (ISO
    /// 8601 strings and base64; read back, they are strings). Also throws for malformed data, and
    /// for what `format` cannot hold: JSON's null in a property list, infinity or NaN in JSON, a
    /// date the text formats cannot write. Output past 64 times the input (at least 64 MiB) throws
    /// ``AMCError/Kind/outputTooLarge(limit:)``: shared objects of a binary property list can
    /// expand a small file far.
    public static func convert(
        _ data: Data, to format: AMCFormat, options: AMCWriteOptions = .readable, textForDatesAndData: Bool = false
    ) throws -> Data {
        Data(
            try DocumentCodec.encode(
                try DocumentCodec.parse(data).value, format: format, options: options,
                outputLimit: OutputBudget.limit(forInput: data.count),
                textForDatesAndData: textForDatesAndData))
    }

    /// Checks that `data` is a well-formed document and says which format it is in, as `plutil
    /// -lint` does, and that every reference in it (`{"$ref": "#/…"}`) names an object: a
    /// file edited by hand or by a tool that shifted what a reference names would not read back.
    ///
    /// ```swift
    /// try AMC.lint(data)   // .json, or an AMCError naming the line and column,
    ///                      // or each reference that names no object, with its key path
    /// ```
    @discardableResult
    public static func lint(_ data: Data) throws -> AMCFormat {
        let parsed = try DocumentCodec.parse(data)
        if parsed.holdsReferences {
            let broken = ObjectReference.brokenReferences(in: parsed.value)
            if !broken.isEmpty { throw AMCError(.brokenReferences(errors: broken)) }
        }
        return parsed.format
    }

    /// A readable tree of a document, as `plutil -p` prints one: a dictionary with a `"class"`
    /// shows as `ClassName { … }`, arrays number their elements, and a reference to an object
    /// written elsewhere as a link to its place and class (`-> #/people/0 (Person)`).
    ///
    /// ```swift
    /// print(try AMC.printedTree(of: data))
    /// // Company {
    /// //   name = "Acme"
    /// //   offices = [
    /// //     0: Office {
    /// // …
    /// ```
    public static func printedTree(of data: Data) throws -> String {
        var text = ""
        let document = try DocumentCodec.parse(data).value
        var path = KeyPathTracker()
        try TreePrinter.print(
            document, root: document, indent: 0, path: &path, to: &text,
            limit: OutputBudget.limit(forInput: data.count))
        return text + "\n"
    }
}
