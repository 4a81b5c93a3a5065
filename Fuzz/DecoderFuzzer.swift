// libFuzzer target for the line decoder and the journal reader.
//
// Compiled together with Sources/Journal (one module, so the reader's internal
// chunk size is reachable) by Fuzz/run.sh; see docs/hardening.md.

/// One input: decoded as a line, as a draft, and read as a whole journal in
/// small and large chunks. Any crash, overflow or failed precondition is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let line = UnsafeRawBufferPointer(start: data, count: size)
  let limits = DecodeLimits(maxLineLength: 1 << 20, maxDepth: 64)
  do {
    let record = try RecordDecoder.decode(line, limits: limits)
    // What decodes encodes to a line that decodes to the same record (an unknown
    // event keeps its text verbatim: there the encoding is the fixed point).
    let again = try RecordDecoder.decode(record.ndjson)
    if case .unknown = record.event {
      precondition(again.ndjson == record.ndjson, "encoding is not a fixed point: \(record.ndjson)")
    } else {
      precondition(again == record, "re-encoded as \(record.ndjson), which decodes to another record")
    }
  } catch {
    precondition((0...size).contains(error.offset), "error offset \(error.offset) outside a line of \(size) bytes")
    precondition(error.rule == .malformed || error.rule == .framing, "unknown rule \(error.rule)")
  }
  do {
    _ = try RecordDecoder.decodeDraft(line, limits: limits)
  } catch {
    precondition((0...size).contains(error.offset), "draft error offset \(error.offset) outside the line")
  }
  let bytes = Array(line)
  var items: [String] = []
  for chunk in [1 << 20, 7] {
    let reader = JournalReader(bytes: bytes, name: "fuzz", options: ReadOptions(limits: limits), chunkSize: chunk)
    var seen: [String] = []
    while let item = reader.next() {
      switch item {
      case .record(let record, let line, let offset): seen.append("\(record.seq)@\(line):\(offset)")
      case .diagnostic(let d):
        precondition(d.line >= 1, "a finding without a line: \(d)")
        seen.append("\(d.rule)@\(d.line):\(d.column ?? 0): \(d.message)")
      }
    }
    if chunk == 1 << 20 { items = seen } else { precondition(seen == items, "the items depend on the chunk size") }
  }
  return 0
}
