/// What the checker remembers of each controller instance beyond the model's state, by its
/// position in the state: the findings reported once per instance.
struct InstanceFlags {
  private static let loadReported: UInt8 = 1
  private static let leakReported: UInt8 = 2
  private var bits: [UInt8] = []

  /// Whether `appear-before-load` was reported for the instance at `position`.
  func loadReported(_ position: Int32) -> Bool { has(Self.loadReported, position) }
  mutating func setLoadReported(_ position: Int32) { set(Self.loadReported, position) }

  /// Whether `modal-leak` was reported for the modal at `position`.
  func leakReported(_ position: Int32) -> Bool { has(Self.leakReported, position) }
  mutating func setLeakReported(_ position: Int32?) {
    guard let position else { return }
    set(Self.leakReported, position)
  }

  /// A new instance took the position (an id reused after its dealloc): it starts afresh.
  mutating func reset(_ position: Int32) {
    if Int(position) < bits.count { bits[Int(position)] = 0 }
  }

  @inline(__always)
  private func has(_ bit: UInt8, _ position: Int32) -> Bool {
    Int(position) < bits.count && bits[Int(position)] & bit != 0
  }

  private mutating func set(_ bit: UInt8, _ position: Int32) {
    let i = Int(position)
    if i >= bits.count { bits.append(contentsOf: repeatElement(0, count: max(i + 1 - bits.count, bits.count))) }
    bits[i] |= bit
  }
}
