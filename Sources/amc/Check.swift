import AMCExample
import AutoMagicCoding
import Foundation

let checkCommand = Command(
    name: "check",
    usage: """
        amc check FILE... [--unknown-keys]
          Read each file as the example model (Company, Person, Manager, Team, Office) leniently
          and list every problem: unknown classes, wrong types, bad references, newer versions
          and, with --unknown-keys, keys no property reads (with the nearest key). Prints FILE: OK
          or the problems with their key paths. Exit status 1 if any file has one.
        """,
    run: check)

func check(_ arguments: [String]) -> Never {
    let files = arguments.filter { $0 != "--unknown-keys" }
    if let option = files.first(where: { $0.hasPrefix("-") }) { usageError("check", "unknown option '\(option)'") }
    guard !files.isEmpty else { usageError("check", "no files") }
    Company.registerModel()
    var failed = false
    for path in files {
        do {
            let report = try AMC.lenientObject(
                from: readInput(path, "check"), reportingUnknownKeys: arguments.contains("--unknown-keys"))
            guard !report.problems.isEmpty else {
                print("\(path): OK, a \(type(of: report.object).amcClassName)")
                continue
            }
            failed = true
            let count = report.problems.count
            print("\(path): \(count == 1 ? "1 problem" : "\(count) problems") in a \(type(of: report.object).amcClassName)")
            for problem in report.problems { print("  \(problem)") }
        } catch {
            failed = true
            print("\(path): \(error)")
        }
    }
    exit(failed ? 1 : 0)
}
