import AMCExample
import AutoMagicCoding
import Foundation

let demoCommand = Command(
    name: "demo",
    usage: """
        amc demo [FOLDER]
          Archive the sample company to FOLDER/company.plist (default: a fresh temporary folder,
          removed afterwards), read it back, and check the copy equals the original field by field.
        """,
    run: demo)

func demo(_ arguments: [String]) -> Never {
    guard arguments.count <= 1 else { usageError("demo", "too many arguments") }
    do {
        let report = try Demo.run(in: arguments.first.map { URL(fileURLWithPath: $0, isDirectory: true) })
        print(report.summary)
        exit(report.differences.isEmpty ? 0 : 1)
    } catch {
        fail("amc demo: \(error)", status: 1)
    }
}
