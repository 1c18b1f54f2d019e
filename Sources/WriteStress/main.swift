import AutoMagicCoding
import Foundation

// A writer for the kill test (FileSafetyTests): writes version after version of a large document
// to one file, atomically, until it is killed. Usage: WriteStress SOURCES TARGET FIRST. Version v
// is SOURCES/(v % 7).json written as a binary property list with sorted keys; after each write
// completes, v is printed on its own line.
let arguments = CommandLine.arguments
guard arguments.count == 4, let first = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: WriteStress SOURCES TARGET FIRST\n".utf8))
    exit(2)
}
let sources = URL(fileURLWithPath: arguments[1], isDirectory: true)
let target = URL(fileURLWithPath: arguments[2])
// Every version read first, so that once the first is written a kill lands in a write (read as
// they were needed, a writer killed after its first write was mostly reading the next source).
let documents = try (0..<7).map { try AMC.dictionary(contentsOf: sources.appendingPathComponent("\($0).json")) }
for version in first... {
    try AMC.write(dictionary: documents[version % 7], to: target, format: .binaryPropertyList)
    FileHandle.standardOutput.write(Data("\(version)\n".utf8))  // unbuffered: said once written
}
