/// Finished results the service thread waits to hear are durable, and what
/// to do then (release a room's held messages), plus whoever waits for all
/// of them (shutdown, before saying goodbye). Service thread only.
struct DurabilityWaits {
    private var waiting: [UInt64: () -> Void] = [:]
    private var nextTicket: UInt64 = 0
    private var whenNone: [() -> Void] = []

    /// Registers `then`; the returned ticket releases it.
    mutating func add(_ then: @escaping () -> Void) -> UInt64 {
        nextTicket += 1
        waiting[nextTicket] = then
        return nextTicket
    }

    /// The result of `ticket` is durable: what to run now, its own action
    /// first, then, if nothing else is awaited, those waiting for none.
    mutating func release(_ ticket: UInt64) -> [() -> Void] {
        guard let then = waiting.removeValue(forKey: ticket) else { return [] }
        guard waiting.isEmpty else { return [then] }
        defer { whenNone = [] }
        return [then] + whenNone
    }

    /// Runs `body` once nothing is awaited: returns it to run now if that
    /// is already so, else keeps it.
    mutating func whenAllDurable(_ body: @escaping () -> Void) -> (() -> Void)? {
        guard !waiting.isEmpty else { return body }
        whenNone.append(body)
        return nil
    }
}
