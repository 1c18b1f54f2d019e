import Foundation
import Testing

@testable import AutoMagicCoding

private struct PlanInsets: AMCCodable, Equatable {
    var top = 0.0
    var left = 0.0
}

private class PlanView: AMCCodable {
    var x = 0.0
    var insets = PlanInsets()
    var size = CGSize.zero
    var opacity: Double? = 1
    var name: String? = "view"
    var next: PlanView?
    var maybe: PlanView?? = .some(nil)
    var subviews: [PlanView] = []
    let tag = 7
    required init() {}
}

private final class PlanLabel: PlanView {
    var text = ""
}

/// Takes `"size"` itself, as a string in its own unit, and keeps what it was given.
private final class PlanGauge: AMCCodable {
    var size = 0.0
    var given: [String] = []
    required init() {}

    func amcSetString(_ string: String, forKey key: String) throws -> Bool {
        guard key == "size" else { return false }
        given.append(string)
        size = try AMC.value(Double.self, from: string) * 10
        return true
    }
}

private final class PlanPanel: AMCCodable {
    var header = PlanView()
    var gauge = PlanGauge()
    var layout = PlanLayout()
    required init() {}
}

private struct PlanLayout: AMCCodable {
    var margins = PlanInsets()
    var view = PlanView()
}

private struct PlanSettings: AMCCodable {
    var layout = PlanLayout()
    var zoom = 1.0
}

/// Keeps every instance it hands a string to, as a hook may.
private final class PlanKeeper: AMCCodable {
    nonisolated(unsafe) static var kept: [PlanKeeper] = []
    var level = 0
    required init() {}

    func amcSetString(_ string: String, forKey key: String) throws -> Bool {
        Self.kept.append(self)
        return false
    }
}

private final class PlanKeeperHolder: AMCCodable {
    var keeper = PlanKeeper()
    required init() {}
}

@Suite("Key-path plans: setting by key path the planned way and the walker's way alike")
struct KeyPathPlanTests {
    @Test func stringsAndValuesReachFieldsThroughObjectsAndStructsInPlace() throws {
        let panel = PlanPanel()
        try panel.setValue(string: "12.5", forKeyPath: "header.x")
        try panel.setValue(string: "3", forKeyPath: "header.insets.top")
        try panel.setValue(string: "300 x 200", forKeyPath: "header.size")
        try panel.setValue(string: "4", forKeyPath: "layout.margins.left")
        try panel.setValue(string: "2", forKeyPath: "layout.view.x")
        try panel.setValue(7, forKeyPath: "header.insets.left")
        #expect(panel.header.x == 12.5 && panel.header.insets == PlanInsets(top: 3, left: 7))
        #expect(panel.header.size == CGSize(width: 300, height: 200))
        #expect(panel.layout.margins.left == 4 && panel.layout.view.x == 2)

        var settings = PlanSettings()
        try settings.setValue(string: "5", forKeyPath: "layout.margins.top")
        try settings.setValue(string: "1.5", forKey: "zoom")
        #expect(settings.layout.margins.top == 5 && settings.zoom == 1.5)
        // A struct root is a value: a copy made before is not changed.
        let copy = settings
        try settings.setValue(string: "6", forKeyPath: "layout.margins.top")
        #expect(copy.layout.margins.top == 5 && settings.layout.margins.top == 6)
    }

    @Test func theSimpleWaysHavePlansAndTheOthersAreWalked() {
        #expect(KeyPathPlan.plan(for: PlanPanel.self, keyPath: "header.insets.top", isKey: false) != nil)
        #expect(KeyPathPlan.plan(for: PlanSettings.self, keyPath: "layout.view.x", isKey: false) != nil)
        #expect(KeyPathPlan.plan(for: PlanView.self, keyPath: "x", isKey: true)?.endsAtRoot == true)
        // An array index, a `let`, a key that is no stored property, a key with a dot.
        #expect(KeyPathPlan.plan(for: PlanView.self, keyPath: "subviews.0.x", isKey: false) == nil)
        #expect(KeyPathPlan.plan(for: PlanView.self, keyPath: "tag", isKey: true) == nil)
        #expect(KeyPathPlan.plan(for: PlanView.self, keyPath: "width", isKey: true) == nil)
        #expect(KeyPathPlan.plan(for: PlanPanel.self, keyPath: "header.x", isKey: true) == nil)
    }

    @Test func aSubclassOrNilOnTheWayIsWalkedWithTheSameResults() throws {
        let panel = PlanPanel()
        try panel.setValue(string: "1", forKeyPath: "header.x")  // planned for a PlanView
        panel.header = PlanLabel()
        try panel.setValue(string: "2", forKeyPath: "header.x")
        try panel.setValue(string: "Hi", forKeyPath: "header.text")
        #expect(panel.header.x == 2 && (panel.header as? PlanLabel)?.text == "Hi")

        let error = #expect(throws: AMCError.self) { try panel.setValue(string: "3", forKeyPath: "header.next.x") }
        #expect(error?.kind == .nilInKeyPath(key: "next", typeName: "PlanLabel"))
        #expect(error?.keyPath == "header.next")
        panel.header.next = PlanView()
        try panel.setValue(string: "3", forKeyPath: "header.next.x")
        #expect(panel.header.next?.x == 3)
    }

    @Test func aDoubleOptionalOnTheWayIsWalked() throws {
        let view = PlanView()
        #expect(KeyPathPlan.plan(for: PlanView.self, keyPath: "maybe.x", isKey: false) == nil)
        for value in [PlanView??.some(nil), .none] {
            view.maybe = value
            let error = #expect(throws: AMCError.self) { try view.setValue(string: "1", forKeyPath: "maybe.x") }
            #expect(error?.kind == .nilInKeyPath(key: "maybe", typeName: "PlanView"))
        }
        view.maybe = .some(PlanView())
        try view.setValue(string: "2", forKeyPath: "maybe.x")
        #expect(view.maybe??.x == 2)
    }

    @Test func errorsNameTheWholeKeyPath() throws {
        let panel = PlanPanel()
        let bad = #expect(throws: AMCError.self) { try panel.setValue(string: "wide", forKeyPath: "header.insets.top") }
        #expect(bad?.keyPath == "header.insets.top")
        #expect("\(bad!)".contains("\"wide\""))
        #expect(panel.header.insets.top == 0)
        let readOnly = #expect(throws: AMCError.self) { try panel.setValue(string: "1", forKeyPath: "header.tag") }
        #expect(readOnly?.kind == .readOnlyKey(key: "tag", typeName: "PlanView"))
        // One key with a dot in it is that key, not a path, before and after the path is planned.
        try panel.setValue(string: "1", forKeyPath: "header.x")
        let dotted = #expect(throws: AMCError.self) { try panel.setValue(string: "1", forKey: "header.x") }
        #expect(dotted?.kind == .unknownKey(key: "header.x", typeName: "PlanPanel"))
    }

    @Test func optionalsTakeNilAndBlankStrings() throws {
        let view = PlanView()
        try view.setValue(string: " ", forKey: "opacity")
        #expect(view.opacity == nil)
        try view.setValue(string: "0.5", forKey: "opacity")
        #expect(view.opacity == 0.5)
        try view.setValue(nil, forKey: "name")
        #expect(view.name == nil)
        try view.setValue(string: "", forKey: "name")
        #expect(view.name == "")
    }

    @Test func theLastOwnersHookIsAskedFirstOnThePlannedWay() throws {
        let panel = PlanPanel()
        try panel.setValue(string: "2", forKeyPath: "gauge.size")
        try panel.setValue(string: "3", forKeyPath: "gauge.size")
        #expect(panel.gauge.size == 30 && panel.gauge.given == ["2", "3"])
        // A value that is not a string is not the hook's.
        try panel.setValue(4.0, forKeyPath: "gauge.size")
        #expect(panel.gauge.size == 4 && panel.gauge.given == ["2", "3"])
        try panel.apply(style: ["gauge.size": "5"])
        #expect(panel.gauge.size == 50)
    }

    @Test func anObjectAHookKeepsOutlivesItsHolder() throws {
        weak var released: PlanKeeper?
        do {
            let holder = PlanKeeperHolder()
            for level in 1...100 { try holder.setValue(string: "\(level)", forKeyPath: "keeper.level") }
            #expect(holder.keeper.level == 100)
            released = holder.keeper
        }
        #expect(PlanKeeper.kept.count == 100 && PlanKeeper.kept.allSatisfy { $0 === released })
        PlanKeeper.kept = []
        #expect(released == nil)
    }

    @Test func manyKeyPathsAreRightPastWhatIsKept() throws {
        let view = PlanView()
        for index in 0..<5_000 {
            let error = #expect(throws: AMCError.self) { try view.setValue(string: "1", forKey: "missing\(index)") }
            #expect(error?.kind == .unknownKey(key: "missing\(index)", typeName: "PlanView"))
        }
        try view.setValue(string: "9", forKeyPath: "insets.top")
        #expect(view.insets.top == 9)
    }

    @Test func threadsSetAlongSharedPlans() async {
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let panel = PlanPanel()
                    for round in 0..<500 {
                        try? panel.setValue(string: "\(task * 1000 + round)", forKeyPath: "header.insets.top")
                        try? panel.setValue(string: "\(round)", forKeyPath: "layout.view.x")
                    }
                    return panel.header.insets.top == Double(task * 1000 + 499) && panel.layout.view.x == 499
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
