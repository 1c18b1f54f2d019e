import AutoMagicCoding
import Foundation

/// A configuration file and a stylesheet from the input bytes: every accessor, a typed object
/// strictly and leniently, and the stylesheet applied to a small graph. Errors, never crashes.
public enum Configs {
    public static func fuzzConfig(_ data: Data) {
        FuzzModels.register()
        guard let config = try? AMCConfig(contentsOf: fuzzFile(data, name: "config")) else { return }
        for keyPath in ["title", "items", "origin", "color", "extras.a", "children.0", "a.b.c"] {
            _ = try? config.string(forKeyPath: keyPath)
            _ = try? config.int(forKeyPath: keyPath)
            _ = try? config.double(forKeyPath: keyPath)
            _ = try? config.bool(forKeyPath: keyPath)
            _ = try? config.date(forKeyPath: keyPath)
            _ = try? config.url(forKeyPath: keyPath)
            _ = try? config.size(forKeyPath: keyPath)
            _ = try? config.rect(forKeyPath: keyPath)
            _ = try? config.edgeInsets(forKeyPath: keyPath)
            _ = try? config.color(forKeyPath: keyPath)
            _ = try? config.font(forKeyPath: keyPath)
            _ = try? config.image(forKeyPath: keyPath)
            _ = try? config.value(FuzzModel.self, forKeyPath: keyPath)
            _ = try? config.value([FuzzItem].self, forKeyPath: keyPath)
        }
        _ = try? config.object(FuzzModel.self)
        _ = try? config.lenientObject(FuzzModel.self)
    }

    public static func fuzzStylesheet(_ data: Data) {
        FuzzModels.register()
        guard let sheet = try? AMCStylesheet(contentsOf: fuzzFile(data, name: "stylesheet")) else { return }
        let model = FuzzModel()
        model.featured = FuzzSpecialItem()
        model.items = [FuzzItem(), FuzzSpecialItem()]
        model.children = [FuzzModel()]
        try? sheet.apply(to: model)
        for name in sheet.styles.keys.sorted() {
            try? sheet.apply(style: name, to: model)
            if let featured = model.featured { try? sheet.apply(style: name, to: featured) }
        }
    }
}
