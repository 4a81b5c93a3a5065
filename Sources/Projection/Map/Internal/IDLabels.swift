/// The labels of the ids in a map's boxes: each whole when it fits, else cut
/// to `width` columns keeping its end (`…troller#12`, where the ids the
/// recording guide recommends differ), and, when two cut labels would still
/// look alike, keeping some of their start too (`N…troller#1`, `S…troller#1`),
/// so that no two different ids on screen share a label.
enum IDLabels {
  /// The label of each id (already made displayable) in at most `width` columns.
  static func labels(_ ids: [String], width: Int, ellipsis: Character) -> [String: String] {
    var labels: [String: String] = [:]
    var byLabel: [String: [String]] = [:]
    for id in Set(ids) {
      let label = keepingEnd(id, width: width, ellipsis: ellipsis)
      labels[id] = label
      byLabel[label, default: []].append(id)
    }
    for (_, group) in byLabel where group.count > 1 {
      // Alike once cut: keep more of the start, the rest of the end, until they differ.
      for head in 1..<max(1, width - 1) {
        let cut = group.map { keepingBoth($0, head: head, width: width, ellipsis: ellipsis) }
        if Set(cut).count == group.count || head == width - 2 {
          for (id, label) in zip(group, cut) { labels[id] = label }
          break
        }
      }
    }
    return labels
  }

  /// `text` whole when it fits in `width` columns, else `…` and its last columns.
  static func keepingEnd(_ text: String, width: Int, ellipsis: Character) -> String {
    guard TextWidth.columns(of: text) > width else { return text }
    guard width > 1 else { return width == 1 ? String(ellipsis) : "" }
    var tail: [Character] = []
    var used = 0
    for character in text.reversed() {
      let w = TextWidth.columns(of: character)
      if used + w > width - 1 { break }
      tail.append(character)
      used += w
    }
    return String(ellipsis) + String(tail.reversed())
  }

  /// The first `head` columns of `text`, `…`, then its last columns, in `width` columns.
  private static func keepingBoth(_ text: String, head: Int, width: Int, ellipsis: Character) -> String {
    guard TextWidth.columns(of: text) > width else { return text }
    var start = ""
    var used = 0
    for character in text {
      let w = TextWidth.columns(of: character)
      if used + w > head { break }
      start.append(character)
      used += w
    }
    let end = keepingEnd(text, width: width - used, ellipsis: ellipsis)
    return start + end
  }
}
