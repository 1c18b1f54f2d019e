import AutoMagicCoding
import Foundation

let insertCommand = Command(
    name: "insert",
    usage: """
        amc insert KEYPATH --type TYPE [VALUE] FILE [--append] [-o OUT] [-s] [--dates-and-data-as-text]
          Add VALUE at KEYPATH, like plutil -insert: a new key, or an element at an index of an
          array (its count adds at the end; --append adds to the array KEYPATH names). TYPE is
          bool (YES or true), integer, float, string, date (ISO 8601), data (base64), json or
          xml (a fragment, for containers), or dictionary or array (empty; no VALUE). Fails if
          the key has a value already. The file is replaced, atomically, in its own format
          (JSON indented if it was), unless -o writes to OUT (- for standard output).
          References ({"$ref": "#/…"}) to elements after an inserted one are rewritten, so each
          names the object it named.
        """,
    run: { edit("insert", $0) })

let replaceCommand = Command(
    name: "replace",
    usage: """
        amc replace KEYPATH --type TYPE [VALUE] FILE [-o OUT] [-s] [--dates-and-data-as-text]
          Put VALUE at KEYPATH in place of what is there (a missing key is added), like plutil
          -replace; TYPE, VALUE and the output as for insert.
        """,
    run: { edit("replace", $0) })

let removeCommand = Command(
    name: "remove",
    usage: """
        amc remove KEYPATH FILE [-o OUT] [-s]
          Remove the value at KEYPATH, like plutil -remove; the output as for insert. Refused,
          listing them, when references name the value or a value inside it; references to later
          elements of an array are rewritten.
        """,
    run: { edit("remove", $0) })

/// `amc insert`, `amc replace` and `amc remove`.
func edit(_ command: String, _ arguments: [String]) -> Never {
    let removing = command == "remove"
    var options: Set<String> = ["-o", "-s"]
    if !removing { options.formUnion(["--type", "--dates-and-data-as-text"]) }
    if command == "insert" { options.insert("--append") }
    let parsed = DocumentArguments(command, arguments, options: options)
    let type = parsed.type
    let takesValue = !removing && type != "dictionary" && type != "array"
    if !removing, type == nil { usageError(command, "--type is required") }
    let types = AMCDocument.Value.textTypes + ["dictionary", "array"]
    if let type, !types.contains(type) { usageError(command, "unknown type '\(type)' (\(types.joined(separator: ", ")))") }
    if !takesValue, !removing, parsed.positional.count == 3 { usageError(command, "--type \(type ?? "") takes no value") }
    let needed = takesValue ? 3 : 2
    guard parsed.positional.count == needed else {
        usageError(
            command,
            parsed.positional.count < needed
                ? (takesValue ? "KEYPATH, a value and FILE are needed" : "KEYPATH and FILE are needed") : "one file at a time")
    }
    let keyPath = parsed.positional[0]
    let path = parsed.positional[needed - 1]
    var value: AMCDocument.Value?
    do {
        value =
            switch type {
            case nil: nil
            case "dictionary": .dictionary([:])
            case "array": .array([])
            case let type?: try AMCDocument.Value(type: type, text: parsed.positional[1])
            }
    } catch let error as AMCError {
        // Named where it was to go (and where in a json or xml fragment it went wrong).
        let place = error.keyPath.isEmpty ? keyPath : keyPath + (error.keyPath.hasPrefix("[") ? "" : ".") + error.keyPath
        fail("amc \(command): the value: \(AMCError(error.kind, keyPath: place))", status: 1)
    } catch {
        fail("amc \(command): the value: \(error)", status: 1)
    }
    var document = readDocument(path, command)
    do {
        switch (command, value) {
        case ("insert", let value?): try document.insert(value, atKeyPath: keyPath, appending: parsed.append)
        case (_, let value?): try document.replace(value, atKeyPath: keyPath)
        case (_, nil): try document.remove(atKeyPath: keyPath)
        }
        let data = try document.data(textForDatesAndData: parsed.textForDatesAndData)  // laid out as it was read
        try writeOutput(data, to: parsed.output ?? (path == "-" ? "-" : path), format: document.format, silent: parsed.silent)
        exit(0)
    } catch {
        fail("amc \(command): \(path == "-" ? "standard input" : path): \(explained(error))", status: 1)
    }
}
