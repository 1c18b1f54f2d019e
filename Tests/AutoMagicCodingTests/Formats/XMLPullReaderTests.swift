import Foundation
import Testing

@testable import AutoMagicCoding

/// The element events markup is read as: what each kind of XML gives, and what is refused with
/// its line and column.
@Suite("XML element events")
struct XMLPullReaderTests {
    /// The events of `xml`, each written short: `<name a=v …>`, `</name>`, `"text"`, `[cdata]`,
    /// `<?target data?>`, with the line and column of each.
    private func events(_ xml: String, skipsBlankText: Bool = false) throws -> [String] {
        try XMLScanner.scanning(Data(xml.utf8)) { scanner in
            var reader = try XMLPullReader(scanner, skipsBlankText: skipsBlankText)
            var events: [String] = []
            while let event = try reader.next() {
                let shown: String
                let offset: Int
                switch event {
                case let .start(name, at):
                    shown = "<" + ([name] + reader.attributes.map { "\($0.name)=\($0.value)" }).joined(separator: " ") + ">"
                    offset = at
                case let .end(name, at): (shown, offset) = ("</\(name)>", at)
                case let .text(text, isCDATA, at): (shown, offset) = (isCDATA ? "[\(text)]" : "\"\(text)\"", at)
                case let .instruction(target, data, at): (shown, offset) = ("<?\(target)\(data.map { " " + $0 } ?? "")?>", at)
                }
                guard case let .line(line, column) = reader.location(of: offset) else { throw AMCError(.missingClassName) }
                events.append("\(line):\(column) \(shown)")
            }
            return events
        }
    }

    /// The error `xml` gives, as its description.
    private func failure(_ xml: String) -> String {
        do {
            _ = try events(xml)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func elementsTextAndInstructionsComeInDocumentOrderWithTheirPlaces() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <?properties {"a": 1}?>
            <!-- a comment -->
            <Column spacing="4">
              <Label text="Hi &amp; bye"/><?sectionBreak?>
              <Text>one &lt;two&gt; <![CDATA[<three>]]></Text>
            </Column>
            <?after it?>
            """
        #expect(
            try events(xml) == [
                "2:1 <?properties {\"a\": 1}?>",
                "4:1 <Column spacing=4>",
                "4:21 \"\n  \"",
                "5:3 <Label text=Hi & bye>",
                "5:3 </Label>",
                "5:31 <?sectionBreak?>",
                "5:47 \"\n  \"",
                "6:3 <Text>",
                "6:9 \"one <two> \"",
                "6:25 [<three>]",
                "6:44 </Text>",
                "6:51 \"\n\"",
                "7:1 </Column>",
                "8:1 <?after it?>",
            ])
    }

    /// Attribute values as XML normalises them: references resolved, tabs and line ends (a CR LF
    /// pair as one) each a space; a character reference to one is kept.
    @Test func attributeValuesAreNormalised() throws {
        #expect(try events("<a v='x\ty\r\nz&#10;w' u=\"&quot;&#x41;&apos;\"/>") == ["1:1 <a v=x y z\nw u=\"A'>", "1:1 </a>"])
        #expect(try events("<a>x\r\ny\rz</a>") == ["1:1 <a>", "1:4 \"x\ny\nz\"", "2:4 </a>"])
    }

    @Test func anInstructionWithoutDataIsReadWhereXMLParserCrashes() throws {
        #expect(try events("<a><?x?></a>") == ["1:1 <a>", "1:4 <?x?>", "1:9 </a>"])
        #expect(try events("<a><?if  !linux ?></a>") == ["1:1 <a>", "1:4 <?if !linux ?>", "1:19 </a>"])
    }

    @Test func malformedMarkupIsRefusedWithItsLineAndColumn() {
        #expect(failure("<a>\n  <b></c>\n</a>").contains("line 2, column 6"))
        #expect(failure("<a>\n  <b></c>\n</a>").contains("expected </b>, found </c>"))
        #expect(failure("<a x='1' x='2'/>").contains("the attribute x appears twice in one tag"))
        #expect(failure("<a x='1' x='2'/>").contains("column 10"))
        #expect(failure("<a x='1/>").contains("unterminated value of x"))
        #expect(failure("<a>text").contains("unterminated <a> element"))
        #expect(failure("<a/><b/>").contains("after the root element"))
        #expect(failure("<!-- only a comment -->").contains("no root element"))
        #expect(failure("<a><?ifx?></a>") == "no error")
        #expect(failure("<a><?if\u{1}x?></a>").contains("expected white space or \"?>\" after <?if"))
        #expect(failure("<a>&unknown;</a>").contains("unknown entity \"&unknown;\""))
    }

    /// XML 1.0 holds no control character but tab, line feed and carriage return, written or as a
    /// reference.
    @Test func controlCharactersAreRefused() {
        #expect(failure("<a>x\u{7}</a>").contains("the control character 0x07 in text"))
        #expect(failure("<a>&#1;</a>").contains("the control character 0x01 in text"))
        #expect(failure("<a v='&#27;'/>").contains("the control character 0x1B in the value of v"))
        #expect(failure("<a>\t\u{7F}</a>") == "no error")
    }

    /// A DOCTYPE is skipped, but one that declares an entity is refused at once: nothing is
    /// expanded (no billion laughs), and no external entity is fetched.
    @Test func entityDeclarationsAreRefused() throws {
        #expect(try events("<!DOCTYPE a [<!ELEMENT a ANY>]><a/>") == ["1:32 <a>", "1:32 </a>"])
        let laughs = """
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <lolz>&lol2;</lolz>
            """
        #expect(failure(laughs).contains("line 1, column 17"))
        #expect(failure(laughs).contains("the DOCTYPE declares an entity"))
        #expect(failure(#"<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>"#).contains("declares an entity"))
        #expect(failure("<!DOCTYPE a [<!ATTLIST a v CDATA '<!ENTITY'>]><a/>") == "no error")
        #expect(failure("<!DOCTYPE a><!DOCTYPE a><a/>").contains("a second DOCTYPE"))
    }

    /// A value is searched for references and control characters up to its closing quote only:
    /// a document on one line (minified, machine-written) of 120,000 attributes reads in about a
    /// second. (Each value searched to the end of the line took hours; the limit makes that a
    /// failure rather than a hang.)
    @Test(.timeLimit(.minutes(1)))
    func aDocumentOnOneLineReadsInTimeInProportionToItsSize() throws {
        let xml = "<r>" + String(repeating: "<e a=\"v\" b=\"w\"/>", count: 60_000) + "</r>"
        #expect(try AMCMarkup(string: xml).elementCount == 60_001)
    }

    @Test func blankTextBetweenTagsCanBeLeftOut() throws {
        let xml = "<a>\n  <b/>\n  x \n<![CDATA[  ]]>\t</a>"
        #expect(
            try events(xml, skipsBlankText: true) == [
                "1:1 <a>", "2:3 <b>", "2:3 </b>", "2:7 \"\n  x \n\"", "4:1 [  ]", "4:16 </a>",
            ])
        #expect(try events(xml).count == 8)
        #expect(try events("<a>  &#32; </a>", skipsBlankText: true) == ["1:1 <a>", "1:4 \"    \"", "1:12 </a>"])
    }

    @Test func aUTF16DocumentGivesTheSameEvents() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a b=\"é\">ü</a>"
        var data = Data([0xFF, 0xFE])
        for unit in xml.utf16 { data.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        let (read, attributes) = try XMLScanner.scanning(data) { scanner in
            var reader = try XMLPullReader(scanner)
            var all: [XMLPullReader.Event] = []
            var attributes: [XMLPullReader.Attribute] = []
            while let event = try reader.next() {
                all.append(event)
                if case .start = event { attributes += reader.attributes }
            }
            return (all, attributes)
        }
        #expect(read.count == 3)
        #expect(read.first == .start(name: "a", offset: 39))
        #expect(attributes == [.init(name: "b", value: "é", offset: 42)])
        if case let .text(text, _, _) = read[1] { #expect(text == "ü") } else { Issue.record("no text: \(read)") }
    }
}
