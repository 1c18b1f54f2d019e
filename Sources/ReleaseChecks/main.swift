// Checks, in a release build (whole-module optimization), the behaviour that depends on the
// optimizer: which `let` properties decoding restores, read back through compiled code, and
// `weak`/`unowned` properties written through the runtime. `.ci/run` runs it:
//
//     swift run -c release ReleaseChecks
import AutoMagicCoding
import Foundation

/// A record whose identity and creation date are `let`s made per instance, with two `let`s every
/// new instance agrees on: one from its declaration, one set in `init()` (both folded into the
/// code by the optimizer in this build when they are integers or floating point).
final class Note: AMCCodable {
    let id: UUID
    let created: Date
    let version = 3
    let scale: Double
    var title = ""
    weak var parent: Folder?
    unowned var owner: Folder

    required init() {
        id = UUID()
        created = Date()
        scale = 1.5
        owner = Folder.placeholder
    }
}

final class Folder: AMCCodable, @unchecked Sendable {  // for `placeholder`; never shared across threads
    var notes: [Note] = []
    required init() {}
    static let placeholder = Folder()
}

// Reading through functions the optimizer cannot see through from the call site.
@inline(never) func id(of note: Note) -> UUID { note.id }
@inline(never) func created(of note: Note) -> Date { note.created }
@inline(never) func version(of note: Note) -> Int { note.version }
@inline(never) func scale(of note: Note) -> Double { note.scale }
@inline(never) func parent(of note: Note) -> Folder? { note.parent }
@inline(never) func owner(of note: Note) -> Folder { note.owner }

var failures = 0
@MainActor func check(_ condition: Bool, _ what: String) {
    print("\(condition ? "ok  " : "FAIL") \(what)")
    if !condition { failures += 1 }
}

AMC.register(Note.self, Folder.self)
let folder = Folder()
let note = Note()
note.title = "release"
note.parent = folder
note.owner = folder
folder.notes = [note]

do {
    for format in [AMCFormat.json, .binaryPropertyList] {
        let copy = try AMC.object(Folder.self, from: try AMC.data(for: folder, format: format))
        let decoded = copy?.notes.first
        check(decoded.map(id(of:)) == note.id, "\(format): let id made in init() is restored")
        check(decoded.map(created(of:)) == note.created, "\(format): let created (a Date) is restored exactly")
        check(decoded.map(version(of:)) == 3 && decoded.map(scale(of:)) == 1.5, "\(format): constant lets keep their value")
        check(decoded.flatMap(parent(of:)) === copy && decoded.map(owner(of:)) === copy, "\(format): weak and unowned point at the decoded folder")
    }
    for (key, value) in [("version", 4.0), ("scale", 2.5)] {
        do {
            _ = try AMC.object(Note.self, from: ["class": "Note", key: value])
            check(false, "another value for the constant let \(key) is an error")
        } catch let error as AMCError {
            check(error.kind == .unrestorableLet(key: key, typeName: "Note"), "another value for the constant let \(key) is an error: \(error)")
        }
    }
} catch {
    check(false, "unexpected error: \(error)")
}
withExtendedLifetime(folder) {}
print(failures == 0 ? "release checks passed" : "\(failures) release checks failed")
exit(failures == 0 ? 0 : 1)
