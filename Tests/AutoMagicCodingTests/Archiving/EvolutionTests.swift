import Foundation
import Testing

@testable import AutoMagicCoding

// Version 2 of the address-book model whose version 1 wrote the files in Fixtures/evolution/
// (see v1-model.swift there): Contact became Person, with fullName split into firstName and
// lastName, and mail renamed email; Colleague became Coworker, with company renamed employer.

class EvolvedPerson: AMCCodable {
    class var amcClassName: String { "Person" }
    class var amcVersion: Int { 2 }
    class var amcFormerKeys: [String: [String]] { ["email": ["mail"]] }
    var firstName = ""
    var lastName = ""
    var email = ""
    var phones: [String] = []
    required init() {}

    class func amcMigrate(_ fields: inout [String: Any], from version: Int) throws {
        if version < 2, let full = fields.removeValue(forKey: "fullName") as? String {
            let parts = full.split(separator: " ", maxSplits: 1).map(String.init)
            fields["firstName"] = parts.first ?? ""
            fields["lastName"] = parts.count > 1 ? parts[1] : ""
        }
    }
}

final class EvolvedCoworker: EvolvedPerson {
    override class var amcClassName: String { "Coworker" }
    override class var amcFormerKeys: [String: [String]] { super.amcFormerKeys.merging(["employer": ["company"]]) { $1 } }
    var employer = ""
}

final class EvolvedBook: AMCCodable {
    static var amcClassName: String { "AddressBook" }
    var title = ""
    var owner: EvolvedPerson?
    var contacts: [EvolvedPerson] = []
    var created = Date(timeIntervalSince1970: 0)
    let schema = "address book"
    required init() {}
}

@Suite("Evolving models: versions, migrations, renames")
struct EvolutionTests {
    init() { Evolution.register() }

    @Test(arguments: ["addressbook-v1.json", "addressbook-v1-xml.plist", "addressbook-v1-binary.plist"])
    func versionOneFilesReadThroughMigrationAndRenames(file: String) throws {
        let data = try FixtureFiles.data("evolution/" + file)
        let book = try #require(try AMC.object(EvolvedBook.self, from: data))
        #expect(book.title == "Friends & colleagues")
        #expect(book.created == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(book.contacts.count == 3)  // the renamed subclass is not lost
        let ada = book.contacts[0]
        #expect(type(of: ada) == EvolvedPerson.self)
        #expect((ada.firstName, ada.lastName, ada.email) == ("Ada", "Lovelace", "ada@example.org"))
        #expect(ada.phones == ["+44 20 7946 0001"])
        #expect(book.owner === ada)  // a reference into a migrated object still finds it
        let grace = try #require(book.contacts[1] as? EvolvedCoworker)
        #expect((grace.firstName, grace.lastName, grace.email) == ("Grace", "Brewster Hopper", "grace@example.org"))
        #expect(grace.employer == "Remington Rand")
        #expect((book.contacts[2].firstName, book.contacts[2].lastName) == ("Plato", ""))

        // Written again, the file records the new versions; read back, nothing is migrated twice.
        let written = try AMC.data(for: book, format: .json, options: .readable)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasSuffix("\"$versions\": {\n    \"Coworker\": 2,\n    \"Person\": 2\n  }\n}\n"))
        #expect(!text.contains("fullName") && !text.contains("\"mail\""))
        let again = try #require(try AMC.object(EvolvedBook.self, from: written))
        #expect(again.contacts.map(\.lastName) == ["Lovelace", "Brewster Hopper", ""])
    }

    @Test func versionsAreRecordedOncePerDocumentAndOnlyForVersionedTypes() throws {
        let book = EvolvedBook()
        book.contacts = (0..<1000).map { index in
            let person = index.isMultiple(of: 2) ? EvolvedPerson() : EvolvedCoworker()
            person.firstName = "P\(index)"
            return person
        }
        let dictionary = try book.dictionaryRepresentation()
        #expect(dictionary["$versions"] as? [String: Int] == ["Person": 2, "Coworker": 2])
        for format in AMCFormat.allCases {
            let text = String(
                decoding: try AMC.convert(try AMC.data(for: book, format: format), to: .json, textForDatesAndData: true),
                as: UTF8.self)
            #expect(text.components(separatedBy: "$versions").count == 2, "\(format)")
        }
        // No versioned type, nothing written.
        let plain = try Zoo().dictionaryRepresentation()
        #expect(plain["$versions"] == nil)
    }

    @Test func aDocumentWithoutVersionsIsVersionZero() throws {
        let book = try #require(
            try AMC.object(
                EvolvedBook.self,
                from: [
                    "class": "AddressBook",
                    "contacts": [["class": "Contact", "fullName": "Alan Turing", "mail": "alan@example.org"]],
                ]))
        #expect(
            (book.contacts[0].firstName, book.contacts[0].lastName, book.contacts[0].email) == (
                "Alan", "Turing", "alan@example.org"
            ))
    }

    @Test func aNewerVersionIsAnErrorUnlessReadLeniently() throws {
        let document: [String: Any] = [
            "class": "AddressBook", "title": "From the future",
            "contacts": [["class": "Person", "firstName": "Ada", "nickname": "Countess"]],
            "$versions": ["Person": 3],
        ]
        let error = try #require(throws: AMCError.self) { try AMC.object(EvolvedBook.self, from: document) }
        #expect(
            error.description == "At \"contacts[0]\": Person was written by version 3 of the type, newer than the version 2 "
                + "this code knows (lenient decoding, AMC.lenientObject, reads what this version understands).")
        let report = try AMCArchiver().lenientObject(EvolvedBook.self, from: document)
        #expect(report.object.contacts.first?.firstName == "Ada")
        #expect(report.problems.map(\.kind) == [.newerVersion(className: "Person", found: 3, known: 2)])
    }

    @Test func badVersionRecordsAreErrorsWithTheirKeyPath() throws {
        let error = try #require(throws: AMCError.self) {
            try AMC.object(EvolvedBook.self, from: ["class": "AddressBook", "$versions": ["Person": "two"]])
        }
        #expect(
            error.description
                == "At \"$versions.Person\": expected a version number (an integer from 0), found the string \"two\".")
    }

    @Test func formerClassNamesAndKeysWorkInConfigsAndStyles() throws {
        let config = AMCConfig(dictionary: ["owner": ["class": "Contact", "mail": "old@example.org"]])
        let book = try config.object(EvolvedBook.self)
        #expect(book.owner?.email == "old@example.org")

        let person = EvolvedPerson()
        try person.apply(style: ["mail": "styled@example.org"])
        #expect(person.email == "styled@example.org")
        let coworker = EvolvedCoworker()
        try coworker.setValue(string: "Initech", forKey: "company")
        #expect(coworker.employer == "Initech")
    }

    @Test(arguments: [false, true])
    func anObjectAMigrationMovesUnchangedKeepsItsIdentity(referenceFirst: Bool) throws {
        final class Task: AMCCodable {
            var name = ""
            required init() {}
        }
        final class Box: AMCCodable {
            static var amcVersion: Int { 2 }
            var primary: Task?
            var others: [Task] = []
            required init() {}
            static func amcMigrate(_ fields: inout [String: Any], from version: Int) throws {
                if version < 2 { fields["primary"] = fields.removeValue(forKey: "main") }
            }
        }
        // The reference is decoded after or before the object it names ("others" sorts first).
        let document: [String: Any] =
            referenceFirst
            ? ["class": "Box", "main": ["$ref": "#/others/0"], "others": [["class": "Task", "name": "m"]]]
            : ["class": "Box", "main": ["class": "Task", "name": "m"], "others": [["$ref": "#/main"]]]
        let box = try #require(try AMC.object(Box.self, from: document))
        #expect(box.primary?.name == "m")
        #expect(box.others.count == 1)
        #expect(box.others.first === box.primary)
    }

    @Test func aMigrationThatThrowsFailsTheObjectAndLenientDecodingLeavesItOut() throws {
        final class Fragile: AMCCodable {
            static var amcVersion: Int { 2 }
            var value = 0
            required init() {}
            static func amcMigrate(_ fields: inout [String: Any], from version: Int) throws {
                guard fields["value"] is Int else { throw AMCError(.typeMismatch(expected: "an old value", found: "none")) }
            }
        }
        final class Shelf: AMCCodable {
            var items: [Fragile] = []
            required init() {}
        }
        AMC.register(Fragile.self)
        let error = try #require(throws: AMCError.self) { try AMC.object(Fragile.self, from: ["class": "Fragile"]) }
        #expect(error.description == "At the root: expected an old value, found none.")
        let report = try AMCArchiver().lenientObject(
            Shelf.self,
            from: [
                "class": "Shelf",
                "items": [["class": "Fragile", "value": 1], ["class": "Fragile"], ["class": "Fragile", "value": 3]],
            ])
        #expect(report.object.items.map(\.value) == [1, 3])  // not filled from the unmigrated fields
        #expect(
            report.problems.map(\.description) == [
                "At \"items[1]\": expected an old value, found none. (value: a dictionary of class \"Fragile\")"
            ])
    }

    @Test func theCurrentKeyWinsOverAFormerOne() throws {
        let person = try #require(try AMC.object(EvolvedPerson.self, from: ["class": "Person", "email": "new", "mail": "old"]))
        #expect(person.email == "new")
    }
}
