// Version 1 of the address-book model, as an app shipped it: the program that wrote the files in
// this folder (run once, from a scratch package depending on AutoMagicCoding by path:
// `swift run v1writer Fixtures/evolution`). The files are committed; EvolutionTests read them with
// version 2 of the model (Tests/AutoMagicCodingTests/EvolutionTests.swift), which renamed
// Contact to Person and Colleague to Coworker, split fullName, and renamed mail and company.
import AutoMagicCoding
import Foundation

class Contact: AMCCodable {
    class var amcVersion: Int { 1 }
    var fullName = ""
    var mail = ""
    var phones: [String] = []
    required init() {}
}

final class Colleague: Contact {
    var company = ""
}

final class AddressBook: AMCCodable {
    var title = ""
    var owner: Contact?
    var contacts: [Contact] = []
    var created = Date(timeIntervalSince1970: 0)
    required init() {}
}

func contact(_ name: String, _ mail: String, phones: [String] = []) -> Contact {
    let contact = Contact()
    contact.fullName = name
    contact.mail = mail
    contact.phones = phones
    return contact
}

let book = AddressBook()
book.title = "Friends & colleagues"
book.created = Date(timeIntervalSince1970: 1_700_000_000)
let ada = contact("Ada Lovelace", "ada@example.org", phones: ["+44 20 7946 0001"])
let grace = Colleague()
grace.fullName = "Grace Brewster Hopper"
grace.mail = "grace@example.org"
grace.company = "Remington Rand"
book.owner = ada
book.contacts = [ada, grace, contact("Plato", "plato@example.org")]

let folder = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")
try AMC.write(book, to: folder.appendingPathComponent("addressbook-v1.json"), format: .json)
try AMC.write(book, to: folder.appendingPathComponent("addressbook-v1-xml.plist"), format: .xmlPropertyList)
try AMC.write(book, to: folder.appendingPathComponent("addressbook-v1-binary.plist"), format: .binaryPropertyList)
