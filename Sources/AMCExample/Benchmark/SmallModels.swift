import AutoMagicCoding
import Foundation

/// The small documents `amc bench` times per call: an app's settings (one object of ten fields)
/// and a message with its two contacts, one of them referred to twice. Each has a `Codable` twin
/// of the same content; the message's twin writes the shared contact twice.
///
/// ```swift
/// BenchSettings.register()
/// let data = try AMC.data(for: BenchSettings.sample(), format: .json)
/// ```
public final class BenchSettings: AMCCodable {
    /// Who uses the app.
    public var userName = ""
    /// The text size, in points.
    public var fontSize = 13.0
    /// Whether the toolbar shows.
    public var showsToolbar = true
    /// When the app was last opened.
    public var lastOpened = Date(timeIntervalSinceReferenceDate: 0)
    /// The files opened last, newest first.
    public var recentFiles: [String] = []
    /// The window's zoom factor.
    public var zoom = 1.0
    /// How many times the app was launched.
    public var launchCount = 0
    /// The interface language, as a language code.
    public var language = "en"
    /// Whether syncing may use mobile data.
    public var syncsOverCellular = false
    /// The accent colour, as `#rrggbb`.
    public var accentColor = "#007aff"
    /// Default settings.
    public required init() {}

    /// Registers the small documents' classes with the archiver.
    public static func register() {
        AMC.register(BenchSettings.self, BenchMessage.self, BenchContact.self)
    }

    /// Typical settings, and their `Codable` twin.
    public static func sample() -> (BenchSettings, CodableSettings) {
        let settings = BenchSettings()
        settings.userName = "Ada Lovelace"
        settings.fontSize = 15
        settings.lastOpened = Date(timeIntervalSinceReferenceDate: 785_000_000.5)
        settings.recentFiles = ["Notes/Analytical Engine.txt", "Letters/To Babbage.md"]
        settings.zoom = 1.25
        settings.launchCount = 1_842
        settings.language = "en-GB"
        settings.syncsOverCellular = true
        settings.accentColor = "#ff9500"
        let twin = CodableSettings(
            userName: settings.userName, fontSize: settings.fontSize, showsToolbar: settings.showsToolbar,
            lastOpened: settings.lastOpened, recentFiles: settings.recentFiles, zoom: settings.zoom,
            launchCount: settings.launchCount, language: settings.language,
            syncsOverCellular: settings.syncsOverCellular, accentColor: settings.accentColor)
        return (settings, twin)
    }
}

/// ``BenchSettings`` for `Codable`.
///
/// ```swift
/// let data = try JSONEncoder().encode(BenchSettings.sample().1)
/// ```
public struct CodableSettings: Codable, Sendable {
    /// ``BenchSettings``'s fields, in its order.
    public var userName: String, fontSize: Double, showsToolbar: Bool, lastOpened: Date, recentFiles: [String]
    public var zoom: Double, launchCount: Int, language: String, syncsOverCellular: Bool, accentColor: String
}

/// A person a message is from or to.
///
/// ```swift
/// let contact = BenchContact()
/// contact.name = "Grace Hopper"
/// ```
public final class BenchContact: AMCCodable {
    /// The contact's name and address.
    public var name = "", address = ""
    /// An empty contact.
    public required init() {}
}

/// A message with its sender, its recipient and whom to reply to: the sender again, so that the
/// document holds three objects and one shared reference.
///
/// ```swift
/// let (message, twin) = BenchMessage.sample()
/// let data = try AMC.data(for: message, format: .json)
/// ```
public final class BenchMessage: AMCCodable {
    /// The subject line and the text.
    public var subject = "", body = ""
    /// When it was sent.
    public var sent = Date(timeIntervalSinceReferenceDate: 0)
    /// Who sent it, to whom, and whom a reply goes to.
    public var from = BenchContact(), to = BenchContact(), replyTo = BenchContact()
    /// An empty message.
    public required init() {}

    /// A message whose reply goes to its sender, and its `Codable` twin.
    public static func sample() -> (BenchMessage, CodableMessage) {
        let message = BenchMessage()
        message.subject = "Notes on the engine"
        message.body = "The engine might compose elaborate pieces of music.\nYours, A."
        message.sent = Date(timeIntervalSinceReferenceDate: 785_000_000)
        (message.from.name, message.from.address) = ("Ada Lovelace", "ada@example.org")
        (message.to.name, message.to.address) = ("Charles Babbage", "charles@example.org")
        message.replyTo = message.from
        func twin(_ contact: BenchContact) -> CodableMessage.Contact {
            CodableMessage.Contact(name: contact.name, address: contact.address)
        }
        let copy = CodableMessage(
            subject: message.subject, body: message.body, sent: message.sent, from: twin(message.from),
            to: twin(message.to), replyTo: twin(message.replyTo))
        return (message, copy)
    }
}

/// ``BenchMessage`` for `Codable`: the sender written again as whom to reply to.
///
/// ```swift
/// let data = try JSONEncoder().encode(BenchMessage.sample().1)
/// ```
public struct CodableMessage: Codable, Sendable {
    /// A contact.
    public struct Contact: Codable, Sendable {
        /// ``BenchContact``'s fields.
        public var name: String, address: String
    }
    /// ``BenchMessage``'s fields.
    public var subject: String, body: String, sent: Date, from: Contact, to: Contact, replyTo: Contact
}
