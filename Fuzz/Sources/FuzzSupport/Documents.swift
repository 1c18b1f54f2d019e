import AutoMagicCoding
import Foundation

/// The document readers (`AMC.lint`, `AMC.convert`, `AMC.printedTree`) on one input. What a
/// reader accepts converts to every format or is refused with an error; what `convert` writes,
/// `lint` accepts as that format, and converting it again gives the same bytes (ours write what
/// ours read back equal).
public enum Documents {
    public static func fuzz(_ data: Data) {
        guard (try? AMC.lint(data)) != nil else { return }  // refused: an error, not a crash
        _ = try? AMC.printedTree(of: data)
        for format in AMCFormat.allCases {
            for options in [AMCWriteOptions.compact, .readable] {
                guard let converted = try? AMC.convert(data, to: format, options: options) else { continue }
                invariant((try? AMC.lint(converted)) == format, "convert to \(format) wrote a file lint refuses")
                let again = try? AMC.convert(converted, to: format, options: options)
                invariant(again == converted, "converting our own \(format) output again changed it")
            }
        }
    }
}
