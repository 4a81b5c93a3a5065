/// `--format` of the analyses (stats, paths, latency): the CLI's spelling is the raw value.
enum AnalysisFormat: String, CaseIterable {
  case text, json, csv

  /// The analyses' `--format`, `csv` saying what the CSV holds (after `csv`: `": one row per…"`).
  static func option(csv: String) -> Option {
    Option.value(
      "--format", "FORMAT", "text (default); json: as --json; csv" + csv,
      values: .cases(AnalysisFormat.self))
  }
}

extension Command {
  /// `--json` or `--format json|csv|text`, for the analyses.
  static func outputFormat(_ arguments: ParsedArguments, format option: Option) throws(UsageError) -> AnalysisFormat {
    let named = arguments.choice(option, as: AnalysisFormat.self)
    guard arguments.flag(Option.json) else { return named ?? .text }
    guard named == nil || named == .json else { throw UsageError("--json contradicts --format \(named!.rawValue)") }
    return .json
  }
}
