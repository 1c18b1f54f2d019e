/// One `amc` command: its name, its usage text (the first line its synopsis), and what runs it
/// with the arguments after the name.
///
/// ```swift
/// let lintCommand = Command(name: "lint", usage: "amc lint FILE...", run: lint)
/// ```
struct Command: Sendable {
    let name: String
    let usage: String
    let run: @Sendable ([String]) -> Never
}

/// Every command, in the order the usage lists them.
let commands = [
    demoCommand, convertCommand, extractCommand, insertCommand, replaceCommand, removeCommand, lintCommand,
    checkCommand, printCommand, styleCommand, markupCommand, benchCommand,
]

/// Each command's usage text by its name.
let usages = Dictionary(uniqueKeysWithValues: commands.map { ($0.name, $0.usage) })

/// The usage of every command, as `amc --help` prints it.
let usage =
    "usage:\n"
    + commands.map { "  " + $0.usage.replacingOccurrences(of: "\n", with: "\n  ") }
    .joined(separator: "\n") + "\n  amc --help | amc COMMAND --help"
