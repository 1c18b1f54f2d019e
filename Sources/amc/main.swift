import Foundation

// The `amc` command: the command named by the first argument, or the usage. Each command is a
// file of its own, listed in `commands`.

var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else { fail(usage, status: 2) }
arguments.removeFirst()
if ["--help", "-h", "help"].contains(name) {
    print(usage)
    exit(0)
}
guard let command = commands.first(where: { $0.name == name }) else {
    fail("amc: unknown command '\(name)'\n\(usage)", status: 2)
}
if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
    print("usage: \(command.usage)")
    exit(0)
}
command.run(arguments)
