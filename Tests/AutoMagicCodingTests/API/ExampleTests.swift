import AMCExample
import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("The amc demo and its sample model")
struct ExampleTests {
    @Test func theDemoWithoutAFolderLeavesNothingBehind() throws {
        let report = try Demo.run(in: nil)
        #expect(report.differences.isEmpty && report.bytes > 0 && !report.kept)
        #expect(!FileManager.default.fileExists(atPath: report.file.deletingLastPathComponent().path))
        #expect(report.summary.hasSuffix("removed the temporary folder (amc demo FOLDER keeps the file)"))
    }

    @Test func demoWritesReadsAndFindsNoDifferences() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("amc-demo-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try Demo.run(in: folder)
        #expect(report.differences == [])
        #expect(report.file == folder.appendingPathComponent("company.plist"))
        #expect(FileManager.default.fileExists(atPath: report.file.path))
        #expect(report.objects == 8)  // each shared object once: 1 company, 2 offices, 4 people, 1 team
        #expect(report.summary.contains("the copy equals the original, field by field"))
    }

    @Test func comparisonCatchesAChangeAnywhereInTheGraph() throws {
        Company.registerModel()
        let original = Company.sample()
        let copy = try #require(try AMC.object(Company.self, from: original.dictionaryRepresentation()))
        #expect(original.differences(from: copy) == [])
        (copy.people[3] as? Manager)?.reports[1].name = "Changed"
        copy.offices[1].frame.origin.x = 1
        copy.assets[1] = "other.png"
        copy.budget.cents += 1
        // Shared objects come back shared: the change shows wherever Linus and Lisbon are.
        #expect(
            original.differences(from: copy) == [
                "budget", "offices[1].frame", "people[1].name", "people[3].reports[1].name",
                "teams[0].lead.reports[1].name", "teams[0].members[1].name", "assets[1]", "assets[5][0].frame",
            ])
        // An equal copy in place of a shared object is a difference too: identity is checked.
        let again = try #require(try AMC.object(Company.self, from: original.dictionaryRepresentation()))
        #expect(again.people[0] === again.teams[0].members[0] && again.people[0].team === again.teams[0])
        again.teams[0].members[0] = try #require(try AMC.object(Person.self, from: again.people[0].dictionaryRepresentation()))
        again.teams[0].members[0].team = again.teams[0]
        #expect(original.differences(from: again).first?.hasPrefix("teams[0].members[0] (identity") == true)
    }

    @Test func sampleArchivesStructsAsStringsAndSubclassesByName() throws {
        Company.registerModel()
        let dict = try Company.sample().dictionaryRepresentation()
        #expect(dict["version"] as? String == "2.4.1")
        #expect(dict["budget"] as? String == "EUR 1200.50")
        let hq = try #require(dict["headquarters"] as? [String: Any])
        #expect(hq["frame"] as? String == "{{39, 235}, {1233.09, 124}}")
        let people = try #require(dict["people"] as? [[String: Any]])
        #expect(people.map { $0["class"] as? String } == ["Person", "Person", "Person", "Manager"])
        #expect(people[2]["email"] == nil)
        for cents in [-305, -5, 0, 7, 120_050] {
            let money = Money(currency: "EUR", cents: cents)
            #expect(try Money(parsing: money.description) == money)
        }
        #expect(Money(currency: "EUR", cents: -305).description == "EUR -3.05")
        #expect(Money(currency: "EUR", cents: -5).description == "EUR -0.05")
        #expect(throws: AMCError.self) { try Money(parsing: "EUR 1.5") }
    }

    @Test func amcDemoBinaryEndToEnd() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("amc-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        let (status, output, _) = try AMCBinary.run(["demo", folder.path])
        #expect(status == 0)
        #expect(output.contains("wrote \(folder.path)/company.plist"))
        #expect(output.contains("the copy equals the original, field by field"))
    }
}
