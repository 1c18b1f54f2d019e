import Foundation

// Runs a program and reports the most memory it held: PeakMemory REPORT PROGRAM [ARGUMENTS...]
// writes "STATUS PEAK_BYTES" to the file REPORT once PROGRAM has ended (STATUS is its exit
// status, or 128 + the signal that ended it); PROGRAM's output passes through.
//
// A process of its own because a program's peak, as the kernel reports it, includes the memory of
// the process that started it (what its address space held before `exec`): started from a large
// process (a test runner, a benchmark), a small program would look as large. This one is small,
// and PROGRAM is its only child, so the peak of its children is PROGRAM's. `MeasuredRun`
// (AMCExample) runs it.
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: PeakMemory REPORT PROGRAM [ARGUMENTS...]\n".utf8))
    exit(2)
}
let program = Process()
program.executableURL = URL(fileURLWithPath: arguments[2])
program.arguments = Array(arguments.dropFirst(3))
do {
    try program.run()
} catch {
    FileHandle.standardError.write(Data("PeakMemory: cannot run \(arguments[2]): \(error)\n".utf8))
    exit(2)
}
program.waitUntilExit()
let status = program.terminationReason == .exit ? program.terminationStatus : 128 + program.terminationStatus
var usage = rusage()
#if canImport(Darwin)
    getrusage(RUSAGE_CHILDREN, &usage)
    let peak = Int(usage.ru_maxrss)  // bytes on Apple platforms
#else
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    let peak = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
#endif
do {
    try Data("\(status) \(peak)\n".utf8).write(to: URL(fileURLWithPath: arguments[1]))
} catch {
    FileHandle.standardError.write(Data("PeakMemory: cannot write \(arguments[1]): \(error)\n".utf8))
    exit(2)
}
