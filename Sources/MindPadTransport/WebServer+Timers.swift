import MindPadHTTP
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
    /// Jobs by id; `heap` orders (due, id) pairs, earliest first. A
    /// cancelled job leaves its heap entry behind, skipped when it surfaces.
    private var jobs: [UInt64: () -> Void] = [:]
    private var heap: [(due: ContinuousClock.Instant, id: UInt64)] = []
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
        schedule(at: ContinuousClock.now + max(delay, .zero), job)
    }

    /// Runs `job` on the service thread at `deadline` (on the next loop turn
    /// if it has passed); jobs with equal deadlines run in the order they
    /// were scheduled.
    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ job: @escaping () -> Void) -> TimerToken {
        precondition(server.isServiceThread, "timers belong to the service thread")
        let id = nextID
        nextID += 1
        jobs[id] = job
        push((deadline, id))
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
        // Due jobs in (due, id) order; a job scheduled by one of them for now
        // runs on the next turn, never re-entrantly.
        var due: [() -> Void] = []
        while let top = heap.first, top.due <= now {
            popTop()
            if let job = jobs.removeValue(forKey: top.id) { due.append(job) }
        }
        for job in due { job() }
        rearm()
        server.flushQueued()
    }

    private func rearm() {
        guard let context = server.context else { return }
        // Drop cancelled entries so the top is a live job.
        while let top = heap.first, jobs[top.id] == nil { popTop() }
        guard let earliest = heap.first?.due else { return }
        if let armedFor, armedFor <= earliest { return }
        armedFor = earliest
        let wait = max(earliest - ContinuousClock.now, .microseconds(1))
        let micros = wait.components.seconds * 1_000_000 + wait.components.attoseconds / 1_000_000_000_000
        lws_sul_schedule(context, 0, block.assumingMemoryBound(to: lws_sorted_usec_list_t.self),
                         serviceTimersFired, lws_usec_t(max(micros, 1)))
    }

    // MARK: Binary min-heap on (due, id)

    private static func less(_ a: (due: ContinuousClock.Instant, id: UInt64), _ b: (due: ContinuousClock.Instant, id: UInt64)) -> Bool {
        a.due < b.due || (a.due == b.due && a.id < b.id)
    }

    private func push(_ entry: (due: ContinuousClock.Instant, id: UInt64)) {
        if heap.count > 2 * jobs.count + 64 {
            // Mostly cancelled entries: rebuild from the live ones.
            let live = heap.filter { jobs[$0.id] != nil }
            heap = []
            heap.reserveCapacity(live.count + 1)
            for e in live { pushRaw(e) }
        }
        pushRaw(entry)
    }

    private func pushRaw(_ entry: (due: ContinuousClock.Instant, id: UInt64)) {
        heap.append(entry)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.less(heap[i], heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count && Self.less(heap[l], heap[m]) { m = l }
            if r < heap.count && Self.less(heap[r], heap[m]) { m = r }
            if m == i { break }
            heap.swapAt(i, m)
            i = m
        }
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
