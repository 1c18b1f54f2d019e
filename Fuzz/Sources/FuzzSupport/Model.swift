import AutoMagicCoding
import Foundation

// A model with every kind of field the archiver handles, for the object harness.

public class FuzzItem: AMCCodable {
    public var name = ""
    public var count = 0
    public var ratio: Double?
    public weak var owner: FuzzModel?
    public required init() {}
}

public final class FuzzSpecialItem: FuzzItem {
    public var tags: Set<String> = []
    public var size = CGSize.zero
}

public enum FuzzState: String, Codable, Sendable { case draft, published }

public enum FuzzEvent: Codable, Equatable, Sendable {
    case created(Date)
    case renamed(from: String, to: String)
    case deleted
}

public struct FuzzPoint: AMCCodable, Equatable {
    public var x = 0.0
    public var y = 0.0
    public init() {}
}

public final class FuzzModel: AMCCodable {
    public var title = ""
    public var id = UUID()
    public var created = Date(timeIntervalSinceReferenceDate: 0)
    public var blob = Data()
    public var link: URL?
    public var state = FuzzState.draft
    public var events: [FuzzEvent] = []
    public var price = Decimal(0)
    public var origin = FuzzPoint()
    public var color = AMCColor(white: 0)
    public var items: [FuzzItem] = []
    public var featured: FuzzItem?
    public var byName: [String: FuzzItem] = [:]
    public var scores: [Int: Double] = [:]
    public var anything: Any?
    public var extras: [String: Any] = [:]
    public var children: [FuzzModel] = []
    public required init() {}
}

/// Never registered: decoding must never make one (its `init()` stops the process).
public final class FuzzForbidden: AMCCodable {
    public var value = 0
    public required init() { invariant(false, "decoding instantiated a type nobody registered") }
}

public enum FuzzModels {
    /// Registers the model (not ``FuzzForbidden``).
    public static func register() {
        AMC.register(FuzzModel.self, FuzzItem.self, FuzzSpecialItem.self)
    }
}
