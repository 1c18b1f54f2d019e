import Foundation
import Testing

@testable import AutoMagicCoding

/// Types planned only by the fail-closed test below, so that their plans are made while the
/// self-test is made to disagree.
final class Sealed: AMCCodable {
    var secret = 1
    var inner = SealedInner()
    required init() {}
}

struct SealedInner: AMCCodable {
    var depth = 2
}

@Suite("The runtime self-test, and reflection that fails closed")
struct RuntimeSelfTestTests {
    /// On this toolchain the runtime reports the canaries' fields as the sources that do not go
    /// through it do.
    @Test func theRuntimeAgreesWithTheIndependentSources() throws {
        #expect(RuntimeSelfTest.failure == nil)
        try AMC.checkRuntime()
    }

    /// Each way the runtime could misreport a field is caught, naming the canary.
    @Test func everyDisagreementIsCaught() {
        func lying(_ change: @escaping (Any.Type, [RuntimeField]) -> [RuntimeField]) -> (Any.Type) -> [RuntimeField] {
            { type in change(type, RuntimeAccess.fields(of: type)) }
        }
        func shifted(_ field: RuntimeField, by bytes: Int) -> RuntimeField {
            RuntimeField(
                name: field.name, type: field.type, offset: field.offset + bytes, isVar: field.isVar,
                isStrong: field.isStrong, ownership: field.ownership)
        }
        let isValue = { (type: Any.Type) in type == RuntimeSelfTest.CanaryValue.self }
        let isObject = { (type: Any.Type) in type == RuntimeSelfTest.CanaryObject.self }
        let cases: [(String, (Any.Type) -> [RuntimeField])] = [
            // An offset one field's width off, as a changed layout algorithm would give.
            ("CanaryValue", lying { isValue($0) ? $1.map { shifted($0, by: $0.name == "name" ? 8 : 0) } : $1 }),
            ("CanaryGeneric<String>", lying { $0 == RuntimeSelfTest.CanaryGeneric<String>.self ? $1.reversed() : $1 }),
            ("CanaryValue's fields read as", lying { isValue($0) ? $1.map { $0.renamed($0.name.uppercased()) } : $1 }),
            (
                "CanaryObject.peer",
                lying { type, fields in
                    isObject(type)
                        ? fields.map {
                            $0.name == "peer"
                                ? RuntimeField(
                                    name: $0.name, type: $0.type, offset: $0.offset, isVar: true, isStrong: true,
                                    ownership: .strong) : $0
                        } : fields
                }
            ),
            // Offsets consistent with each other but all off by one word: the layout rule catches
            // it, before any value is read there.
            ("CanaryObject's offsets", lying { isObject($0) ? $1.map { shifted($0, by: 8) } : $1 }),
        ]
        for (expected, fields) in cases {
            let failure = RuntimeSelfTest.check(fields: fields)
            #expect(failure?.contains(expected) == true, "\(expected): \(String(describing: failure))")
        }
    }

    /// When the self-test disagrees, every call that would read or write fields throws
    /// `.runtimeUnsupported`, and nothing is written.
    @Test func aDisagreementFailsClosed() throws {
        try RuntimeSelfTest.$simulatedFailure.withValue("a test's simulated disagreement") {
            let refused = AMCError.Kind.runtimeUnsupported(reason: "a test's simulated disagreement")
            #expect(try #require(throws: AMCError.self) { try AMC.checkRuntime() }.kind == refused)
            let sealed = Sealed()
            let calls: [(String, () throws -> Void)] = [
                ("dictionaryRepresentation", { _ = try sealed.dictionaryRepresentation() }),
                ("data", { _ = try AMC.data(for: sealed, format: .json) }),
                ("object", { _ = try AMC.object(Sealed.self, from: ["class": "Sealed", "secret": 5]) }),
                ("loadValue", { try sealed.loadValue(forKey: "secret", from: ["secret": 5]) }),
                ("setValue", { try sealed.setValue("5", forKeyPath: "secret") }),
                ("value", { _ = try sealed.value(forKeyPath: "inner.depth") }),
                ("apply", { try sealed.apply(style: ["secret": 5]) }),
                ("check", { try AMC.check(Sealed.self) }),
            ]
            for (name, call) in calls {
                let error = try #require(throws: AMCError.self, "\(name)") { try call() }
                // AMC.check and styles list their errors inside one.
                var kinds = [error.kind]
                if case let .unarchivable(errors) = error.kind { kinds += errors.map(\.kind) }
                if case let .invalidStyle(errors) = error.kind { kinds += errors.map(\.kind) }
                #expect(kinds.contains(refused), "\(name): \(error)")
            }
            #expect(sealed.secret == 1 && sealed.inner.depth == 2)
        }
    }
}
