import AutoMagicCoding
import Foundation

/// Object decoding on one input: untyped and typed, strict and lenient. An object that decodes
/// writes to a binary property list (keys and sets in order), reads back, and writes the same
/// bytes again.
public enum Objects {
    public static func fuzz(_ data: Data) {
        FuzzModels.register()
        if let object = try? AMC.object(from: data) { roundTrip(object) }
        if let model = try? AMC.object(FuzzModel.self, from: data) { roundTrip(model) }
        if let report = try? AMC.lenientObject(FuzzModel.self, from: data, reportingUnknownKeys: true) {
            roundTrip(report.object)
        }
    }

    private static func roundTrip(_ object: any AMCCodable) {
        guard let first = try? AMC.data(for: object, format: .binaryPropertyList, options: .readable) else { return }
        let copy: (any AMCCodable)?
        do {
            copy = try AMC.object(from: first)
        } catch {
            return invariant(false, "our own binary property list does not read back: \(error)")
        }
        guard let copy else { return invariant(false, "our own binary property list reads back as nothing") }
        let second = try? AMC.data(for: copy, format: .binaryPropertyList, options: .readable)
        invariant(second == first, "an object read back from our own file writes other bytes")
    }
}
