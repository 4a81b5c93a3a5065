import Journal
import Projection
import Rendering

extension ReportRunBuilder {
  static let moveType = Event.Kind.move.index
  static let lifecycleType = Event.Kind.lifecycle.index

  /// The event's type code (its ``Event/Kind/index``, or the count of kinds for
  /// an unknown type) and the two numbers the lanes draw it with: for a
  /// callback its lane and the callback, for a move the two lanes, else the
  /// lanes of the first two controllers it names (-1 for none).
  mutating func describe(_ event: Event, _ positions: [Int32]) -> (Int, Int32, Int32) {
    let type = event.kind?.index ?? Event.Kind.allCases.count
    let a = positions.first.map { $0 >= 0 ? lane($0) : -1 } ?? -1
    switch event {
    case .lifecycle(_, let callback):
      return (type, a, Int32(callback.index))
    case .unknown:
      return (Event.knownTypeNames.count, -1, -1)
    case .session, .alloc, .root, .link, .unlink, .modal, .touches, .pan, .move, .dealloc, .mark:
      return (type, a, positions.count > 1 && positions[1] >= 0 ? lane(positions[1]) : -1)
    }
  }

  /// The event's `log` sentence as an index in the string table: a template
  /// where the names of lanes `a` and `b` are ``ReportStrings/first`` and
  /// ``ReportStrings/second`` (the page puts the lanes' names back), so that
  /// the sentences of many controllers share one string; `-1 - index` for a
  /// sentence written whole (one whose other text holds those characters).
  ///
  /// Implementation note: the template is the sentence of the event with
  /// placeholder ids, and a sentence shows an id only as `Glyphs.unicode.id`,
  /// the lane's name on the page (`displayText`); so the template is built
  /// instead of the sentence, and never compared with it here (`ReportTests`
  /// reads every sentence back, as the page does, against `Event.sentence`).
  ///
  /// A template that names every controller of its event by a placeholder
  /// depends only on the event's other fields: it is looked up by those
  /// (``TemplateKey``) and made once (a sentence made, checked and hashed for
  /// every event would weigh on writing a churn-shaped page). The others (a
  /// pan's, nearly every one new) are made on another thread, and `0` stands
  /// in `texts` until ``placeSentences()`` puts their indexes there.
  mutating func sentence(_ event: Event, _ ids: [ControllerID], a: Int32, b: Int32) -> Int {
    let first = a >= 0 && !ids.isEmpty
    let second = b >= 0 && ids.count > 1 && ids[1] != ids[0]
    let key = first && (ids.count == 1 || second) ? TemplateKey(event) : nil
    if let key, let known = templates[key] { return known }
    guard let key else {
      // Made on another thread; its index is put in place at the end (``placeSentences()``).
      sentences.add(PendingSentence(event: stepped - 1, value: event, first: first, second: second))
      return 0
    }
    let made = SentenceText(event, first: first, second: second)
    let index = strings.index(made.text)
    if made.isTemplate { templates[key] = index }
    return made.index(index)
  }

  /// Puts the sentences made on another thread in the string table and their indexes in `texts`.
  mutating func placeSentences() {
    for (event, made) in sentences.all() { texts[event] = made.index(strings.index(made.text)) }
  }

  /// An event whose sentence has no ``TemplateKey``, to be made elsewhere.
  struct PendingSentence: Sendable {
    /// Its index in the window.
    var event: Int
    var value: Event
    var first: Bool
    var second: Bool
  }

  /// An event's sentence as the string table holds it: a template (its lanes
  /// `a` and `b` as placeholders, when `first` and `second` say they have
  /// lanes) when it has exactly those placeholders, else the whole sentence.
  struct SentenceText: Sendable {
    var text: String
    var isTemplate: Bool
    /// A whole sentence whose own text holds the placeholders' characters (the page shows it as written).
    var isEscaped: Bool

    init(_ event: Event, first: Bool, second: Bool) {
      if first || second,
        let template = event.replacingControllers(
          first ? ReportStrings.first : nil, second ? ReportStrings.second : nil)?.sentence,
        ReportStrings.placeholders(template) == (first ? 1 : 0) + (second ? 1 : 0)
      {
        (text, isTemplate, isEscaped) = (template, true, false)
      } else {
        text = event.sentence
        (isTemplate, isEscaped) = (false, ReportStrings.placeholders(text) > 0)
      }
    }

    /// What `texts` holds for it, given its index in the string table: `-1 - index` when escaped.
    func index(_ index: Int) -> Int { isEscaped ? -1 - index : index }
  }

  /// What decides the sentence template of an event whose every controller is
  /// a placeholder: its kind and its other fields (nil for an event with free
  /// text besides its ids, whose template is made each time).
  struct TemplateKey: Hashable {
    var kind: Int
    var a = 0
    var b = 0
    var c = 0

    init?(_ event: Event) {
      switch event {
      case .lifecycle(_, let callback):
        kind = 0
        a = callback.index
      case .root: kind = 1
      case .dealloc: kind = 2
      case .link(_, let direction, _):
        kind = 3
        a = direction.index
      case .unlink(_, let direction):
        kind = 4
        a = direction.index
      case .modal: kind = 5
      case .touches(_, let direction, let min):
        kind = 6
        a = direction.index
        b = min
      case .move(let move):
        kind = 7
        a = move.direction.index
        b = move.trigger.index
        c = move.animated ? 1 : 0
      // A pan's distance and velocity make nearly every one's sentence new.
      case .session, .alloc, .pan, .mark, .unknown: return nil
      }
    }
  }
}
