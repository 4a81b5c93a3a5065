/// The labels of the ids in a map's boxes: each whole when it fits, else
/// shortened in the middle to `width` columns (``TextWidth/middle(_:to:ellipsis:head:)``:
/// `Check…er#115`, `Checkout…Controller#115` where there is room), so that the
/// class's start and the instance number (`#115`, where the ids the recording
/// guide recommends differ) both stay, and, when two shortened labels would
/// still look alike, with more or less of their start (`NotesL…r#1`,
/// `NotesE…r#1`), so that no two different ids on screen share a label.
enum IDLabels {
  /// The label of each id (already made displayable) in at most `width` columns.
  static func labels(_ ids: [String], width: Int, ellipsis: Character) -> [String: String] {
    var labels: [String: String] = [:]
    var byLabel: [String: [String]] = [:]
    for id in Set(ids) {
      let label = TextWidth.middle(id, to: width, ellipsis: ellipsis)
      labels[id] = label
      byLabel[label, default: []].append(id)
    }
    for (_, group) in byLabel where group.count > 1 {
      // Alike once shortened: another split of the room between start and end, until they differ.
      for head in 1..<max(2, width - 1) {
        let cut = group.map { TextWidth.middle($0, to: width, ellipsis: ellipsis, head: head) }
        if Set(cut).count == group.count || head >= width - 2 {
          for (id, label) in zip(group, cut) { labels[id] = label }
          break
        }
      }
    }
    return labels
  }
}
