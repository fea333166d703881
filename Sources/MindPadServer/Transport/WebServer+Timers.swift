import CLibWebSockets
import Foundation

/// Names one scheduled job so it can be cancelled.
public struct TimerToken: Hashable, Sendable {
    let raw: UInt64
}

/// Timers on the lws service thread, driven by one `lws_sorted_usec_list`
/// (sul). The 4.1 loop ignores `lws_service`'s timeout argument, so a sul is
/// how the loop learns when to wake; jobs are kept in Swift and the single
/// sul is always set to the earliest one.
///
/// Service thread only, like everything else that touches lws. Create it once
/// the server has started (from a delegate callback) and keep it for the
/// server's life: lws keeps a pointer to the sul.
public final class ServiceTimers {
    private unowned let server: WebServer
    /// A sul followed by the unretained address of `self`, which the C
    /// callback reads back (the sul callback gets only the sul pointer).
    private let block: UnsafeMutableRawPointer
    private var jobs: [UInt64: (due: ContinuousClock.Instant, job: () -> Void)] = [:]
    private var nextID: UInt64 = 1
    private var armedFor: ContinuousClock.Instant?

    private static let sulSize = (MemoryLayout<lws_sorted_usec_list_t>.size + 15) / 16 * 16

    public init(server: WebServer) {
        self.server = server
        block = .allocate(byteCount: Self.sulSize + MemoryLayout<UInt>.size, alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: 0, count: Self.sulSize + MemoryLayout<UInt>.size)
        (block + Self.sulSize).storeBytes(of: UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()), as: UInt.self)
    }

    /// Runs `job` on the service thread after `delay` (at once if it is zero
    /// or negative, but never re-entrantly: on the next loop turn).
    @discardableResult
    public func schedule(after delay: Duration, _ job: @escaping () -> Void) -> TimerToken {
        precondition(server.isServiceThread, "timers belong to the service thread")
        let id = nextID
        nextID += 1
        jobs[id] = (ContinuousClock.now + max(delay, .zero), job)
        rearm()
        return TimerToken(raw: id)
    }

    /// Drops a job that has not run yet; harmless for one that ran.
    public func cancel(_ token: TimerToken?) {
        guard let token else { return }
        jobs[token.raw] = nil
    }

    /// Jobs waiting (for tests and metrics).
    public var pending: Int { jobs.count }

    fileprivate func fire() {
        armedFor = nil
        let now = ContinuousClock.now
        let due = jobs.filter { $0.value.due <= now }.sorted { $0.value.due < $1.value.due || ($0.value.due == $1.value.due && $0.key < $1.key) }
        for (id, _) in due { jobs[id] = nil }
        for (_, entry) in due { entry.job() }
        rearm()
    }

    private func rearm() {
        guard let context = server.context else { return }
        guard let earliest = jobs.values.map(\.due).min() else { return }
        if let armedFor, armedFor <= earliest { return }
        armedFor = earliest
        let wait = max(earliest - ContinuousClock.now, .microseconds(1))
        let micros = wait.components.seconds * 1_000_000 + wait.components.attoseconds / 1_000_000_000_000
        lws_sul_schedule(context, 0, block.assumingMemoryBound(to: lws_sorted_usec_list_t.self),
                         serviceTimersFired, lws_usec_t(max(micros, 1)))
    }
}

/// The sul callback: finds the `ServiceTimers` stored after the sul.
private func serviceTimersFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul else { return }
    let size = (MemoryLayout<lws_sorted_usec_list_t>.size + 15) / 16 * 16
    let address = (UnsafeMutableRawPointer(sul) + size).load(as: UInt.self)
    guard let raw = UnsafeMutableRawPointer(bitPattern: address) else { return }
    Unmanaged<ServiceTimers>.fromOpaque(raw).takeUnretainedValue().fire()
}
