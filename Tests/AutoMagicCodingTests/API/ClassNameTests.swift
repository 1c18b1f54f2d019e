import Foundation
import Testing

@testable import AutoMagicCoding

class Link: AMCCodable {
    var label = ""
    required init() {}

    convenience init(_ label: String) {
        self.init()
        self.label = label
    }
}

final class SpecialLink: Link {
    var extra = 0
}

/// `later` comes first in property order, `earlier` first in sorted order.
final class LinkPair: AMCCodable {
    var later: Link?
    var earlier: Link?
    var links: [Link] = []
    var anything: [Any] = []
    required init() {}
}

@Suite("Files name a class only where the declared type does not")
struct ClassNameTests {
    init() { AMC.register(Link.self, SpecialLink.self, LinkPair.self) }

    private func json(_ object: any AMCCodable, _ classNames: AMCClassNames = .whereNeeded) throws -> [String: Any] {
        let data = try AMC.data(
            for: object, format: .json, options: AMCWriteOptions(prettyPrinted: false, sortedKeys: true, classNames: classNames))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func anObjectOfItsPlacesDeclaredTypeGoesWithoutItsClass() throws {
        let pair = LinkPair()
        pair.earlier = Link("plain")
        let special = SpecialLink("special")
        special.extra = 7
        pair.links = [Link("in an array"), special]
        pair.anything = [Link("in Any")]
        let file = try json(pair)
        #expect(file["class"] as? String == "LinkPair")
        #expect((file["earlier"] as? [String: Any])?["class"] == nil)
        let links = try #require(file["links"] as? [[String: Any]])
        #expect(links[0]["class"] == nil)
        #expect(links[1]["class"] as? String == "SpecialLink")
        #expect((file["anything"] as? [[String: Any]])?[0]["class"] as? String == "Link")
        // Every object names its class when asked, as the dictionary representation does.
        let tagged = try json(pair, .everyObject)
        #expect((tagged["earlier"] as? [String: Any])?["class"] as? String == "Link")
        #expect((try pair.dictionaryRepresentation()["earlier"] as? [String: Any])?["class"] as? String == "Link")

        for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
            let copy = try #require(try AMC.object(LinkPair.self, from: try AMC.data(for: pair, format: format)))
            #expect(copy.earlier.map { type(of: $0) == Link.self } == true)
            #expect(copy.earlier?.label == "plain")
            #expect((copy.links[1] as? SpecialLink)?.extra == 7)
            #expect((copy.anything.first as? Link)?.label == "in Any")
        }
    }

    /// Sorted keys write `earlier` in full first and `later` as a reference to it; reading in
    /// property order meets the reference first, and finds the class from the declared types.
    @Test func aReferenceMetBeforeItsClasslessTargetFindsTheDeclaredType() throws {
        let pair = LinkPair()
        pair.earlier = Link("shared")
        pair.later = pair.earlier
        let file = try json(pair)
        #expect((file["later"] as? [String: Any])?["$ref"] as? String == "#/earlier")
        for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
            let data = try AMC.data(for: pair, format: format, options: .readable)
            let copy = try #require(try AMC.object(LinkPair.self, from: data))
            #expect(copy.later === copy.earlier)
            #expect(copy.later?.label == "shared")
            // Without the expected type too: the root names its class.
            #expect((try AMC.object(from: data) as? LinkPair)?.earlier?.label == "shared")
        }
    }

    /// Sorted keys put `anything` first: the shared link is written in full inside an object in
    /// an `Any` place (which names its class), and `later` refers into it.
    @Test func aReferenceIntoAnObjectInAnAnyPlaceFindsTheDeclaredType() throws {
        let inner = LinkPair()
        inner.earlier = Link("deep")
        let pair = LinkPair()
        pair.anything = [inner]
        pair.later = inner.earlier
        for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
            let data = try AMC.data(for: pair, format: format, options: .readable)
            let copy = try #require(try AMC.object(LinkPair.self, from: data))
            #expect(copy.later === (copy.anything.first as? LinkPair)?.earlier)
            #expect(copy.later?.label == "deep")
        }
    }

    @Test func aReferenceToAClasslessDictionaryInAnAnyPlaceIsAnError() {
        let json = ##"{"class": "LinkPair", "later": {"$ref": "#/anything/0"}, "anything": [{"label": "x"}]}"##
        let error = expectAMCError { _ = try AMC.object(LinkPair.self, from: Data(json.utf8)) }
        #expect(
            error
                == AMCError(
                    .invalidReference(pointer: "#/anything/0", reason: "it names a dictionary without \"class\""),
                    keyPath: "later"))
    }
}
