import Foundation

// Object graphs to the bytes of each format: the encoder's walk, into a format's writer.

extension DocumentCodec {
    /// Writes `object` in `format` to `drain`, block by block as the writer goes, so that the
    /// document is never whole in memory (except in no-throw mode, where a failed entry is
    /// dropped by rewinding the writer, which needs its bytes).
    static func write(
        _ object: any AMCCodable, format: AMCFormat, options: AMCWriteOptions, archiver: AMCArchiver, to drain: ByteDrain
    ) throws {
        let rest = try encode(
            object, format: format, options: options, archiver: archiver, passingOnTo: archiver.noThrow ? nil : drain)
        drain.write(rest)
    }

    /// The bytes of `object` in `format` that the writer did not pass on to `drain` as it went.
    static func encode(
        _ object: any AMCCodable, format: AMCFormat, options: AMCWriteOptions, archiver: AMCArchiver,
        passingOnTo drain: ByteDrain?
    ) throws -> [UInt8] {
        // With a drain, the pending bytes get their room once, not by doubling from 4 KB.
        let capacity = drain == nil ? 4096 : ByteDrain.pendingCapacity
        switch format {
        case .json:
            return try encode(
                object, with: JSONWriter(options: options, capacity: capacity), options: options, archiver: archiver, drain: drain
            )
        case .xmlPropertyList:
            return try encode(
                object, with: XMLPlistWriter(options: options, capacity: capacity), options: options, archiver: archiver,
                drain: drain)
        case .binaryPropertyList:
            return try encode(
                object, with: BinaryPlistWriter.reused(options: options, capacity: capacity), options: options,
                archiver: archiver,
                drain: drain)
        }
    }

    /// The bytes of `object` that `writer` did not pass on to `drain`: written again into the
    /// writer's ``DocumentWriter/wider`` one when it has one (no error no-throw mode swallowed is
    /// reported twice). Tests pass writers of their own.
    static func encode<Writer: DocumentWriter>(
        _ object: any AMCCodable, with writer: consuming Writer, options: AMCWriteOptions, archiver: AMCArchiver,
        drain: ByteDrain?, reportedBefore: Int = 0
    ) throws -> [UInt8] {
        writer.link.drain = drain
        var (written, swallowed) = try ArchiveEncoder.encode(
            object, into: consume writer, restarting: { $0.restarted() }, archiver: archiver, sortedKeys: options.sortedKeys,
            omitsDeclaredClasses: options.classNames == .whereNeeded, reportedBefore: reportedBefore)
        if let wider = written.wider {
            written.link.drain?.restart()
            written = wider  // the first try's tables go before the second starts
            return try encode(
                object, with: consume written, options: options, archiver: archiver, drain: drain, reportedBefore: swallowed)
        }
        let bytes = written.finish()
        (consume written).recycle()
        return bytes
    }
}
