/// The two trace formats `trace` writes.
public enum TraceFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The Trace Event Format of Chrome's tracing (`chrome://tracing`, the
  /// Performance panel, Perfetto UI): one JSON object with `traceEvents`.
  case chrome
  /// OTLP/JSON as OpenTelemetry's file exporter writes it: JSON Lines, one
  /// `TracesData` per line.
  case otlp

  public var description: String { rawValue }
}
