import Foundation
import MindPadRecognition
import Synchronization

/// Recognition off the service thread: N worker threads, each with its own
/// `Recognizer.Workspace` (so a call allocates nothing), fed from one FIFO.
/// One digit (`recognize`, MindPad) and a whole number (`readNumber`, the
/// Add-One game) share the threads and workspaces. Completions run on the
/// worker thread; callers hop back to the service thread with `WebServer.post`.
public final class RecognitionPool: DrawingRecognizer {
    public typealias Completion = @Sendable (Result<Recognition, RecognitionError>) -> Void
    public typealias NumberCompletion = @Sendable (Result<NumberReading, RecognitionError>) -> Void

    /// One reading to do: `read` reads with the worker's recognizer and
    /// workspace and returns the call of its completion (made after the
    /// reading's time is taken); `refuse` fails it unread.
    private struct Job: Sendable {
        let read: @Sendable (Recognizer, Recognizer.Workspace) -> () -> Void
        let refuse: @Sendable (RecognitionError) -> Void
        /// When it was queued: its wait for a worker goes to
        /// `mindpad_recognition_wait_seconds`.
        let queued = ContinuousClock.now
    }

    private struct Queue: ~Copyable {
        var jobs: [Job] = []
        var head = 0
        var stopping = false
    }

    public let recognizer: Recognizer
    public let threadCount: Int
    private let metrics: ServerMetrics?
    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `threads` workers named `mindpad-recog-N`; each reading's time
    /// goes to `metrics`.
    public init(recognizer: Recognizer, threads: Int, metrics: ServerMetrics? = nil) {
        precondition(threads >= 1, "a pool needs a thread")
        self.recognizer = recognizer
        self.metrics = metrics
        self.threadCount = threads
        for n in 0..<threads {
            let thread = Thread { [self] in
                // Named from inside: on Linux that is what reaches the kernel (top -H, /proc).
                Thread.current.name = "mindpad-recog-\(n)"
                self.work()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// The bundled model on `threads` workers.
    public static func bundled(threads: Int, metrics: ServerMetrics? = nil) throws -> RecognitionPool {
        RecognitionPool(recognizer: try Recognizer.bundled(), threads: threads, metrics: metrics)
    }

    /// Queues a drawing of one digit, read with the player's `hand` when
    /// there is one; `completion` runs on a worker thread.
    public func recognize(_ drawing: Drawing, hand: PlayerHand? = nil, completion: @escaping Completion) {
        enqueue(Job(read: { recognizer, workspace in
            let result = Result { () throws(RecognitionError) in try recognizer.recognize(drawing, in: workspace, hand: hand) }
            return { completion(result) }
        }, refuse: { completion(.failure($0)) }))
    }

    /// Queues a drawing of a number written left to right
    /// (`Recognizer.readNumber`); `completion` runs on a worker thread.
    public func readNumber(_ drawing: Drawing, hand: PlayerHand? = nil, completion: @escaping NumberCompletion) {
        let metrics = metrics
        enqueue(Job(read: { recognizer, workspace in
            let result = Result { () throws(RecognitionError) in try recognizer.readNumber(drawing, in: workspace, hand: hand) }
            if case .success(let reading) = result, reading.cutShort { metrics?.numberReadingsCutShort.increment() }
            return { completion(result) }
        }, refuse: { completion(.failure($0)) }))
    }

    /// Queues teaching `hand` a drawing of `digit` (`Recognizer.learn`, on a
    /// worker, never the service thread); `completion` runs on the worker
    /// with the hand as it then is. Its time goes to `mindpad_hand_learn_seconds`.
    public func learn(_ drawing: Drawing, as digit: Int, into hand: PlayerHand,
                      completion: @escaping @Sendable (PlayerHand) -> Void) {
        let metrics = metrics
        enqueue(Job(read: { recognizer, workspace in
            let started = ContinuousClock.now
            var taught = hand
            try? recognizer.learn(drawing, as: digit, into: &taught, in: workspace)
            metrics?.handLearning.record(ContinuousClock.now - started)
            return { completion(taught) }
        }, refuse: { _ in completion(hand) }))
    }

    public func makeHand() -> PlayerHand? { recognizer.makeHand() }

    public var handModel: HandModel? { recognizer.hand }

    private func enqueue(_ job: Job) {
        let accepted = queue.withLock { q -> Bool in
            guard !q.stopping else { return false }
            q.jobs.append(job)
            return true
        }
        if accepted {
            available.signal()
        } else {
            job.refuse(RecognitionError(.invalidModel, detail: "recognition pool stopped"))
        }
    }

    /// Jobs waiting for a worker.
    public var backlog: Int { queue.withLock { $0.jobs.count - $0.head } }

    /// Lets the workers finish the queue, then stops them.
    public func shutdown() {
        queue.withLock { $0.stopping = true }
        for _ in 0..<threadCount { available.signal() }
        for _ in 0..<threadCount { finished.wait() }
    }

    private func work() {
        let workspace = recognizer.makeWorkspace()
        while true {
            available.wait()
            let job = queue.withLock { q -> Job? in
                guard q.head < q.jobs.count else { return nil }
                let job = q.jobs[q.head]
                q.head += 1
                if q.head == q.jobs.count {
                    q.jobs.removeAll(keepingCapacity: true)
                    q.head = 0
                }
                return job
            }
            guard let job else {
                if queue.withLock({ $0.stopping }) { break }
                continue
            }
            let started = ContinuousClock.now
            metrics?.recognitionWait.record(started - job.queued)
            let deliver = job.read(recognizer, workspace)
            metrics?.recognition.record(ContinuousClock.now - started)
            deliver()
        }
        finished.signal()
    }
}
