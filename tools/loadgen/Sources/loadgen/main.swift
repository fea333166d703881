// loadgen: simulated MindPad racers (or an echo pattern, or idle
// connections) on the libwebsockets client API, one service thread.
//
//   loadgen --mode race --port P --racers 2000 --duration 30 --server-pid PID --out r.json
//   loadgen --mode echo --port P --racers 2000 --duration 30 --server-pid PID --out e.json
//   loadgen --mode idle --port P --connections 10000 --server-pid PID --out i.json
//
// race: rooms of 8 (time_attack); every racer draws a digit about every 3 s
//   as 12 batches of points 50 ms apart, waits for the live guess covering
//   all its points, submits, and reads `graded`. Latencies: stroke → guess is
//   from the newest batch a `guess` covers to that guess (older batches it
//   covers were coalesced by the server's ≤ 10 guesses/s per player), and
//   submit → graded; both in HdrHistogram (µs).
// echo: the same messages on the same schedule against an echo server;
//   each echo is the "guess"/"grade" of the message it returns.
// idle: connections that only take `welcome` and stay open; RSS per connection.
// classroom (issue 46): `--classroom setup.json` (teachers, classes and pupils
//   made beforehand over HTTP: scripts/classroom-setup.py): per class, a
//   projector opens the class's lesson (`host_lesson`), its pupils join,
//   the projector starts it once all are in, and every pupil draws as the
//   racers do (at `--cycle`, `--batches`, `--batch-interval`: classroom pace).
//   Pen → projector: from a pupil's batch leaving to the projector's
//   `pad_points` of it (each pupil's batches in order); a batch the
//   projector never saw within 2 s is lost.
//
//   --loop poll|libuv     the event loop (default: MINDPAD_EVENT_LOOP, as the server)
//   --sources N           spread connections over N loopback source addresses
//                         (127.0.0.1 … 127.0.0.N): one address has ~28,000 ports
//
// Behind HAProxy (several instances) a joiner whose connection reached
// another instance than the room's gets `moved`: it reconnects to
// `/ws?instance=<owner>`, identifies with its token and joins again, as the
// web client does. `--server-pid` takes a comma-separated list (the
// instances): CPU and RSS are their sums.
import CLWS
import Foundation
import Histogram
import LoadgenShim
#if canImport(Glibc)
import Glibc
#endif

// MARK: Configuration

struct Options {
    var mode = "race"
    var host = "127.0.0.1"
    var port: Int32 = 8080
    var racers = 16
    var connections = 0
    var duration = 10.0
    var warmup = 3.0
    var rampPerSecond = 1000.0
    var serverPids: [Int32] = []
    var out: String?
    var label = ""
    var cycle = 3.0
    var batches = 12
    var batchInterval = 0.05
    var loop = mindpad_loop_parse(getenv("MINDPAD_EVENT_LOOP"))
    var sources = 1
    /// Created when the measured window begins (and removed first): lets a
    /// profiler start on the window rather than on a guess of the ramp's length.
    var mark: String?
    /// classroom: the setup file (scripts/classroom-setup.py).
    var classroom: String?
}

var opt = Options()
var argv = CommandLine.arguments.dropFirst().makeIterator()
while let a = argv.next() {
    func v() -> String { argv.next() ?? "" }
    switch a {
    case "--mode": opt.mode = v()
    case "--host": opt.host = v()
    case "--port": opt.port = Int32(v()) ?? 0
    case "--racers": opt.racers = Int(v()) ?? 0
    case "--connections": opt.connections = Int(v()) ?? 0
    case "--duration": opt.duration = Double(v()) ?? 10
    case "--warmup": opt.warmup = Double(v()) ?? 3
    case "--ramp": opt.rampPerSecond = Double(v()) ?? 1000
    case "--server-pid": opt.serverPids = v().split(separator: ",").compactMap { Int32($0) }
    case "--out": opt.out = v()
    case "--label": opt.label = v()
    case "--cycle": opt.cycle = Double(v()) ?? 3
    case "--loop": opt.loop = mindpad_loop_parse(v())
    case "--sources": opt.sources = max(1, min(254, Int(v()) ?? 1))
    case "--mark": opt.mark = v()
    case "--classroom": opt.classroom = v()
    case "--batches": opt.batches = max(2, Int(v()) ?? 12)
    case "--batch-interval": opt.batchInterval = Double(v()) ?? 0.05
    default:
        FileHandle.standardError.write("unknown argument \(a)\n".data(using: .utf8)!)
        exit(2)
    }
}
if opt.loop < 0 {
    FileHandle.standardError.write("the event loop must be poll or libuv\n".data(using: .utf8)!)
    exit(2)
}
if opt.mode == "race" { opt.racers = (opt.racers / 8) * 8 }

/// classroom: each class's teacher token, class id and pupils (name, token).
struct ClassSetup { let token: String; let classID: String; let pupils: [(name: String, token: String)] }
let classes: [ClassSetup] = {
    guard opt.mode == "classroom" else { return [] }
    guard let path = opt.classroom, let data = FileManager.default.contents(atPath: path),
          let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let list = json["classes"] as? [[String: Any]] else {
        FileHandle.standardError.write("classroom: --classroom FILE with {\"classes\": [...]} is needed\n".data(using: .utf8)!)
        exit(2)
    }
    return list.map { c in
        ClassSetup(token: c["token"] as? String ?? "", classID: c["class"] as? String ?? "",
                   pupils: (c["pupils"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", $0["token"] as? String ?? "") })
    }
}()
let total = opt.mode == "idle" ? opt.connections : opt.mode == "classroom" ? classes.reduce(0) { $0 + $1.pupils.count + 1 } : opt.racers

@inline(__always) func nowNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

// MARK: Server process figures (/proc)

/// Summed over the server processes; nil when none can be read.
func procTicks(_ pids: [Int32]) -> UInt64? {
    let each = pids.compactMap(procTicks)
    return each.isEmpty ? nil : each.reduce(0, +)
}

func procKB(_ pids: [Int32], _ key: String) -> Int? {
    let each = pids.compactMap { procKB($0, key) }
    return each.isEmpty ? nil : each.reduce(0, +)
}

func procTicks(_ pid: Int32) -> UInt64? {
    pid > 0 ? procTicks(path: "/proc/\(pid)/stat") : nil
}

func procTicks(path: String) -> UInt64? {
    guard let s = try? String(contentsOfFile: path, encoding: .utf8),
          let close = s.lastIndex(of: ")") else { return nil }
    let f = s[s.index(after: close)...].split(separator: " ")
    // After the command: state is field 3, utime 14, stime 15 → indices 11, 12.
    guard f.count > 13, let u = UInt64(f[11]), let st = UInt64(f[12]) else { return nil }
    return u + st
}

/// A counter of each thread of the server processes, summed by thread name
/// (`/proc/PID/task/TID/comm`; threads of one name summed, e.g. the two
/// `mindpad-recog-N` stay apart but database workers of one name add up):
/// `read` gets the thread's directory.
func perThread(_ pids: [Int32], _ read: (String) -> UInt64?) -> [String: UInt64] {
    var byName: [String: UInt64] = [:]
    for pid in pids where pid > 0 {
        guard let tids = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { continue }
        for tid in tids {
            let dir = "/proc/\(pid)/task/\(tid)"
            guard let comm = try? String(contentsOfFile: dir + "/comm", encoding: .utf8), let value = read(dir) else { continue }
            byName[comm.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += value
        }
    }
    return byName
}

/// CPU ticks of each thread of the server processes, by thread name.
func threadTicks(_ pids: [Int32]) -> [String: UInt64] { perThread(pids) { procTicks(path: $0 + "/stat") } }

/// Nanoseconds a thread has waited on a run queue for a core
/// (`/proc/.../schedstat`: run time, wait time, time slices).
func waitNs(path: String) -> UInt64? {
    guard let s = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    let f = s.split(separator: " ")
    return f.count > 1 ? UInt64(f[1].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
}

/// Run-queue waits of each thread of the server processes, by thread name,
/// in nanoseconds.
func threadWaits(_ pids: [Int32]) -> [String: UInt64] { perThread(pids) { waitNs(path: $0 + "/schedstat") } }

/// The load generator's own run-queue wait (its main thread, which does
/// all the work): while it waits, what it receives waits too, and counts in
/// the latencies it measures.
func ownWaitNs() -> UInt64 { waitNs(path: "/proc/self/task/\(getpid())/schedstat") ?? 0 }

/// The whole machine's busy and total ticks (`/proc/stat`, all cores): with
/// the server's and our own share, what else was running in the window.
func machineTicks() -> (busy: UInt64, total: UInt64)? {
    guard let s = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
          let line = s.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
    let f = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
    guard f.count >= 5 else { return nil }
    let total = f.prefix(8).reduce(0, +)   // user nice system idle iowait irq softirq steal
    return (total - f[3] - f[4], total)
}

/// The CPU counters read at each end of the window: the server's, each of
/// its threads', our own, the machine's.
func ticksNow() -> (server: UInt64, threads: [String: UInt64], own: UInt64, machine: (busy: UInt64, total: UInt64)?) {
    (procTicks(opt.serverPids) ?? 0, threadTicks(opt.serverPids), procTicks(getpid()) ?? 0, machineTicks())
}

func procKB(_ pid: Int32, _ key: String) -> Int? {
    guard pid > 0, let s = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in s.split(separator: "\n") where line.hasPrefix(key + ":") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
}

// MARK: State

enum Phase { case connecting, welcome, identifying, waitingCode, joining, lobby, racing, done, failed }

final class Conn {
    let index: Int
    let room: Int
    let seat: Int
    var wsi: OpaquePointer?
    /// Established and not closed: a message may be written at once.
    var open = false
    var phase = Phase.connecting
    var outbox: [[UInt8]] = []
    var rx: [UInt8] = []
    var question = ""
    var cycleStart: UInt64 = 0
    var nextBatchAt: UInt64 = 0
    var batchesSent = 0
    var pointsSent = 0
    var pending: [(points: Int, at: UInt64)] = []  // batches not yet covered by a guess
    var echoQueue: [UInt64] = []                   // echo: send times, FIFO
    var waitingFinalGuessSince: UInt64 = 0
    var submitAt: UInt64 = 0
    var lastGuessAt: UInt64 = 0
    var startSentAt: UInt64 = 0
    var token: String?            // from `identified`, to identify again after `moved`
    var instance: String?         // `moved` named it: the next connection asks for it
    var hopping = false           // closed for `moved`: not an unexpected close
    /// classroom: the class's projector (the last seat of its class).
    var isProjector = false
    /// classroom: a pupil's batches not yet seen on the projector, in order.
    var padQueue: [(question: String, at: UInt64)] = []
    init(index: Int, room: Int, seat: Int) { self.index = index; self.room = room; self.seat = seat }
}

final class Room {
    var code: String?
    var readySent = 0
    var allReady = false
    var started = false
    /// classroom: pupils in the lesson's room.
    var joined = 0
    var firstJoinAt: UInt64 = 0
}

var conns: [Conn] = {
    guard opt.mode == "classroom" else { return (0..<total).map { Conn(index: $0, room: $0 / 8, seat: $0 % 8) } }
    var out: [Conn] = []
    for (k, c) in classes.enumerated() {
        for seat in 0...c.pupils.count {
            let conn = Conn(index: out.count, room: k, seat: seat)
            conn.isProjector = seat == c.pupils.count
            out.append(conn)
        }
    }
    return out
}()
var rooms: [Room] = (0..<(opt.mode == "classroom" ? classes.count : total / 8 + 1)).map { _ in Room() }
/// classroom: each pupil's connection by player id (from `identified`).
var byPlayer: [String: Int] = [:]
var penToProjector = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
var padsLost = 0, padsSkipped = 0
var byWsi: [OpaquePointer: Int] = [:]
let runID = String(UInt32.random(in: 0...UInt32.max), radix: 36)

/// What the window's timeline reads of the machine once a second: the
/// service thread's and our own run-queue waits (ns), and CPU ticks of the
/// server, ours and the whole machine's busy.
struct Counters {
    var serviceWait: UInt64 = 0, ownWait: UInt64 = 0
    var serverTicks: UInt64 = 0, ownTicks: UInt64 = 0, machineBusy: UInt64 = 0

    /// From counters already read (at the window's ends).
    init(waits: [String: UInt64], ownWait: UInt64, serverTicks: UInt64, ownTicks: UInt64,
         machine: (busy: UInt64, total: UInt64)?) {
        (serviceWait, self.ownWait) = (waits["mindpad-lws"] ?? 0, ownWait)
        (self.serverTicks, self.ownTicks, machineBusy) = (serverTicks, ownTicks, machine?.busy ?? 0)
    }
    init() {}

    static let all: [WritableKeyPath<Counters, UInt64>] = [\.serviceWait, \.ownWait, \.serverTicks, \.ownTicks, \.machineBusy]

    static func now() -> Counters {
        Counters(waits: threadWaits(opt.serverPids), ownWait: ownWaitNs(), serverTicks: procTicks(opt.serverPids) ?? 0,
                 ownTicks: procTicks(getpid()) ?? 0, machine: machineTicks())
    }
}

/// The window second by second: is the tail spread over the window, or a
/// few seconds in which something stalled (the server's service thread, the
/// load generator, or something else taking a core)?
struct Timeline {
    /// Latencies in one second: how many, how many over 50 ms, the longest.
    struct Tail {
        var count = 0, over50 = 0, maxNs: UInt64 = 0
        mutating func add(_ ns: UInt64) {
            count += 1
            if ns > 50_000_000 { over50 += 1 }
            maxNs = max(maxNs, ns)
        }
    }
    struct Second {
        var grades = Tail(), guesses = Tail()
        /// What `Counters` grew by in this second.
        var counters = Counters()
        /// The longest the load generator's 10 ms tick came late: while its
        /// thread is late, what it receives waits and counts as latency.
        var ownLagMaxNs: UInt64 = 0
    }
    var seconds: [Second] = []
    var from: UInt64 = 0
    var last = Counters()

    mutating func slot(_ at: UInt64) -> Int {
        let i = Int((at - min(at, from)) / 1_000_000_000)
        while seconds.count <= i { seconds.append(Second()) }
        return i
    }
    mutating func note(grade ns: UInt64, at: UInt64) { seconds[slot(at)].grades.add(ns) }
    mutating func note(guess ns: UInt64, at: UInt64) { seconds[slot(at)].guesses.add(ns) }
    mutating func note(ownLag ns: UInt64, at: UInt64) {
        let i = slot(at)
        seconds[i].ownLagMaxNs = max(seconds[i].ownLagMaxNs, ns)
    }
    /// What the counters grew by since the last call, charged to the second `at` ends.
    mutating func sample(_ c: Counters, at: UInt64) {
        let i = slot(max(from, at &- 1))
        for k in Counters.all { seconds[i].counters[keyPath: k] += c[keyPath: k] - min(c[keyPath: k], last[keyPath: k]) }
        last = c
    }
    var json: [[String: Any]] {
        func ms(_ ns: UInt64) -> Double { (Double(ns) / 1e5).rounded() / 10 }
        return seconds.enumerated().map { i, s in
            let c = s.counters
            return ["second": i, "grades": s.grades.count, "grades_over_50ms": s.grades.over50, "grade_max_ms": ms(s.grades.maxNs),
                    "guesses_unthrottled": s.guesses.count, "guesses_over_50ms": s.guesses.over50, "guess_max_ms": ms(s.guesses.maxNs),
                    "service_thread_wait_ms": ms(c.serviceWait), "loadgen_wait_ms": ms(c.ownWait),
                    // Shares of one core over the second (ticks of 1/100 s).
                    "server_cpu_percent": c.serverTicks, "loadgen_cpu_percent": c.ownTicks,
                    "others_cpu_percent": c.machineBusy - min(c.machineBusy, c.serverTicks + c.ownTicks),
                    "loadgen_lag_max_ms": ms(s.ownLagMaxNs)]
        }
    }
}
var timeline = Timeline()

var strokeToGuess = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
var strokeToGuessOpen = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
var submitToGrade = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
var sentByType: [String: Int] = [:]
var receivedByType: [String: Int] = [:]
var errorsByCode: [String: Int] = [:]
var sent = 0, received = 0
var lostGuesses = 0, lostGrades = 0, connectErrors = 0, unexpectedCloses = 0, hops = 0
var reconnecting: [Int] = []   // closed for `moved`; the main loop connects them again
var established = 0, welcomed = 0, racing = 0
var measuring = false, measureFrom: UInt64 = 0
var windowSent = 0, windowReceived = 0
var stopping = false

let pre = loadgen_lws_pre()

/// Sends a message: written at once when nothing waits before it (in the
/// outbox, or unsent in lws: `lws_partial_buffered`), else queued for
/// WRITEABLE. Asking for WRITEABLE on every message cost four `epoll_ctl`
/// per send on libuv (lws' glue re-arms the descriptor), as it did the
/// server (tools/loadgen/analysis.md). A full socket is not asked about
/// first (`lws_send_pipe_choked` is a `poll()` per message): lws keeps what
/// the socket refuses and asks for WRITEABLE itself.
func enqueue(_ c: Conn, _ text: String, type: String) {
    sent += 1
    if measuring { windowSent += 1 }
    sentByType[type, default: 0] += 1
    if let wsi = c.wsi, c.open, c.outbox.isEmpty, lws_partial_buffered(wsi) == 0 {
        write(wsi, text.utf8)
        return
    }
    c.outbox.append(Array(text.utf8))
    if let wsi = c.wsi { lws_callback_on_writable(wsi) }
}

/// One text frame: the message after LWS_PRE bytes of headroom, as lws_write
/// wants it. A socket that failed is closed by lws on its next pass (CLIENT_CLOSED).
func write(_ wsi: OpaquePointer, _ message: some Collection<UInt8>) {
    var frame = [UInt8](repeating: 0, count: pre)
    frame.append(contentsOf: message)
    let length = frame.count - pre
    _ = frame.withUnsafeMutableBufferPointer { lws_write(wsi, $0.baseAddress! + pre, length, LWS_WRITE_TEXT) }
}

// MARK: Tiny JSON field scans (the server writes compact JSON, "type" first)

@inline(__always) func find(_ hay: [UInt8], _ needle: StaticString, from: Int = 0) -> Int? {
    let n = needle.utf8Start
    let m = needle.utf8CodeUnitCount
    guard hay.count >= m else { return nil }
    var i = from
    let last = hay.count - m
    while i <= last {
        if hay[i] == n[0] {
            var j = 1
            while j < m && hay[i + j] == n[j] { j += 1 }
            if j == m { return i + m }
        }
        i += 1
    }
    return nil
}

func stringField(_ b: [UInt8], _ key: StaticString) -> String? {
    guard let s = find(b, key) else { return nil }
    var e = s
    while e < b.count && b[e] != UInt8(ascii: "\"") { e += 1 }
    return String(decoding: b[s..<e], as: UTF8.self)
}

func intField(_ b: [UInt8], _ key: StaticString) -> Int? {
    guard let s = find(b, key) else { return nil }
    var e = s, v = 0
    while e < b.count, b[e] >= 48, b[e] <= 57 { v = v * 10 + Int(b[e] - 48); e += 1 }
    return e > s ? v : nil
}

// MARK: The racer

/// One batch of a drawing: 5 points along a "7"-ish path, stroke 0 then 1.
func batchText(_ c: Conn) -> String {
    let k = c.batchesSent
    let stroke = k < opt.batches / 2 ? 0 : 1
    var pts: [String] = []
    for p in 0..<5 {
        let t = Double(k * 5 + p) / Double(opt.batches * 5)
        let x = stroke == 0 ? 20 + 200 * t * 2 : 220 - 120 * (t - 0.5) * 2
        let y = stroke == 0 ? 20.0 : 20 + 260 * (t - 0.5) * 2
        pts.append("[\(Int(x)),\(Int(y)),\(k * 50 + p * 10)]")
    }
    return #"{"type":"points","question":"\#(c.question)","stroke":\#(stroke),"points":[\#(pts.joined(separator: ","))]}"#
}

func startCycle(_ c: Conn, at t: UInt64) {
    c.cycleStart = t
    c.nextBatchAt = t
    c.batchesSent = 0
    c.pointsSent = 0
    c.pending.removeAll(keepingCapacity: true)
    c.waitingFinalGuessSince = 0
    c.submitAt = 0
    due.push(t, c.index)
}

func sendBatch(_ c: Conn, now: UInt64) {
    enqueue(c, batchText(c), type: "points")
    c.batchesSent += 1
    c.pointsSent += 5
    if opt.mode == "echo" { c.echoQueue.append(now) } else { c.pending.append((c.pointsSent, now)) }
    if opt.mode == "classroom" { c.padQueue.append((c.question, now)) }
    c.nextBatchAt = now + UInt64(opt.batchInterval * 1e9)
    if c.batchesSent == opt.batches { c.waitingFinalGuessSince = now } else { due.push(c.nextBatchAt, c.index) }
}

func submit(_ c: Conn, now: UInt64) {
    c.waitingFinalGuessSince = 0
    c.submitAt = now
    enqueue(c, #"{"type":"submit","question":"\#(c.question)"}"#, type: "submit")
    if opt.mode == "echo" { c.echoQueue.append(now) }
}

func graded(_ c: Conn, now: UInt64) {
    if c.submitAt > 0 {
        if measuring && c.submitAt >= measureFrom {
            _ = submitToGrade.record((now - c.submitAt) / 1000)
            timeline.note(grade: now - c.submitAt, at: now)
        }
        c.submitAt = 0
        // echo: the next drawing begins one cycle after this one began (race:
        // on the next `question`).
        if opt.mode == "echo" { due.push(c.cycleStart + UInt64(opt.cycle * 1e9), c.index) }
    }
}

/// The drawing's last batch is covered (by a guess, or echoed): submit now.
func submitIfCovered(_ c: Conn, now: UInt64) {
    guard c.waitingFinalGuessSince > 0, c.submitAt == 0 else { return }
    if opt.mode == "echo" ? c.echoQueue.isEmpty : c.pending.isEmpty { submit(c, now: now) }
}

/// Racers' due times (the next batch of a drawing; in echo mode also the next
/// drawing), earliest first. An entry is a hint: `wake` checks the racer's
/// state, so an entry made stale by a later schedule does nothing.
struct DueHeap {
    private var at: [UInt64] = []
    private var who: [Int32] = []
    var earliest: UInt64? { at.first }
    mutating func push(_ t: UInt64, _ index: Int) {
        at.append(t); who.append(Int32(index))
        var i = at.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if at[parent] <= at[i] { break }
            at.swapAt(parent, i); who.swapAt(parent, i)
            i = parent
        }
    }
    mutating func pop() -> Int {
        let top = Int(who[0])
        let lastAt = at.removeLast(), lastWho = who.removeLast()
        if !at.isEmpty {
            at[0] = lastAt; who[0] = lastWho
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < at.count && at[l] < at[m] { m = l }
                if r < at.count && at[r] < at[m] { m = r }
                if m == i { break }
                at.swapAt(m, i); who.swapAt(m, i)
                i = m
            }
        }
        return top
    }
}
var due = DueHeap()

/// A racer whose due time came: its next batch, or (echo) its next drawing.
func wake(_ c: Conn, now: UInt64) {
    guard c.phase == .racing, !c.question.isEmpty, c.submitAt == 0 else { return }
    if opt.mode == "echo" && c.batchesSent == opt.batches && c.waitingFinalGuessSince == 0
        && now >= c.cycleStart + UInt64(opt.cycle * 1e9) {
        startCycle(c, at: now)
    }
    if c.batchesSent < opt.batches && now >= c.nextBatchAt { sendBatch(c, now: now) }
}

/// Every loop turn: the racers whose time came, from the heap (the steady
/// state: O(due racers), not O(racers), so the load generator's own CPU does
/// not grow with every racer on every turn, on 2 cores it shares with the
/// server it measures).
func serviceDue(_ now: UInt64) {
    while let t = due.earliest, t <= now { wake(conns[due.pop()], now: now) }
}

/// The slow timers, every 10 ms: joining rooms, the host's start (retried),
/// and giving up on a guess (2 s) or a grade (5 s) that never came.
func tick(_ now: UInt64) {
    conns.withUnsafeBufferPointer { all in
        for c in all where c.phase == .racing || c.phase == .lobby || c.phase == .waitingCode {
            switch c.phase {
            case .waitingCode:
                if let code = rooms[c.room].code {
                    c.phase = .joining
                    enqueue(c, #"{"type":"join_room","code":"\#(code)"}"#, type: "join_room")
                }
            case .lobby where opt.mode == "classroom":
                // The teacher starts once every pupil is in (or 30 s after the first came).
                let r = rooms[c.room]
                if c.isProjector, !r.started, r.joined > 0,
                   r.joined >= classes[c.room].pupils.count || now > r.firstJoinAt + 30_000_000_000,
                   now > c.startSentAt + 300_000_000 {
                    c.startSentAt = now
                    enqueue(c, #"{"type":"lesson","action":"start"}"#, type: "lesson")
                }
            case .lobby:
                let r = rooms[c.room]
                if c.seat == 0, !r.started, r.allReady, now > c.startSentAt + 300_000_000 {
                    c.startSentAt = now
                    enqueue(c, #"{"type":"start"}"#, type: "start")
                }
            case .racing:
                // (echo: an echo is never lost; the racer waits for it)
                if opt.mode != "echo" && c.submitAt == 0 && c.waitingFinalGuessSince > 0
                    && now - c.waitingFinalGuessSince > 2_000_000_000 {
                    if measuring { lostGuesses += 1 }
                    c.pending.removeAll()
                    submit(c, now: now)
                }
            default: break
            }
            if c.submitAt > 0 && now - c.submitAt > 5_000_000_000 {
                if measuring { lostGrades += 1 }
                c.submitAt = 0
                if opt.mode == "echo" { due.push(now, c.index) }
            }
        }
    }
}

func handle(_ c: Conn, _ b: [UInt8], now: UInt64) {
    received += 1
    if measuring { windowReceived += 1 }
    if opt.mode == "echo" {
        // The echo of our own message: FIFO.
        guard !c.echoQueue.isEmpty else { return }
        let at = c.echoQueue.removeFirst()
        let isSubmit = find(b, #""type":"submit""#) != nil
        receivedByType[isSubmit ? "echo_submit" : "echo_points", default: 0] += 1
        if isSubmit {
            graded(c, now: now)
        } else {
            if measuring && at >= measureFrom { _ = strokeToGuess.record((now - at) / 1000) }
            submitIfCovered(c, now: now)
        }
        return
    }
    let type = stringField(b, #""type":""#) ?? "?"
    receivedByType[type, default: 0] += 1
    switch type {
    case "welcome" where opt.mode == "classroom":
        welcomed += 1
        let setup = classes[c.room]
        if c.isProjector {
            c.phase = .joining
            enqueue(c, #"{"type":"host_lesson","token":"\#(setup.token)","class":"\#(setup.classID)","game":"mindpad","mode":"time_attack"}"#,
                    type: "host_lesson")
        } else {
            c.phase = .identifying
            let pupil = setup.pupils[c.seat]
            enqueue(c, #"{"type":"identify","name":"\#(pupil.name)","token":"\#(pupil.token)"}"#, type: "identify")
        }
    case "identified" where opt.mode == "classroom":
        if let id = stringField(b, #""player_id":""#) { byPlayer[id] = c.index }
        c.phase = .waitingCode
    case "lesson":
        if let code = stringField(b, #""room":""#) { rooms[c.room].code = code }
        if c.phase == .joining { c.phase = .lobby }
    case "room" where opt.mode == "classroom":
        if !c.isProjector && c.phase == .joining {
            c.phase = .lobby
            let r = rooms[c.room]
            if r.joined == 0 { r.firstJoinAt = now }
            r.joined += 1
        }
    case "pad_points":
        // The projector drew a pupil's batch: the oldest of theirs not yet seen
        // for that question (one the server dropped, for an old question, is skipped).
        guard let player = stringField(b, #""player":""#), let i = byPlayer[player],
              let question = stringField(b, #""question":""#) else { break }
        let pupil = conns[i]
        while let first = pupil.padQueue.first, first.question != question {
            pupil.padQueue.removeFirst()
            padsSkipped += 1
        }
        guard let first = pupil.padQueue.first else { break }
        pupil.padQueue.removeFirst()
        if measuring && first.at >= measureFrom { _ = penToProjector.record((now - first.at) / 1000) }
    case "welcome":
        welcomed += 1
        if opt.mode == "race" {
            c.phase = .identifying
            let token = c.token.map { #","token":"\#($0)""# } ?? ""
            enqueue(c, #"{"type":"identify","name":"lg\#(runID)x\#(c.index)"\#(token)}"#, type: "identify")
        } else {
            c.phase = .done
        }
    case "identified":
        if let token = stringField(b, #""token":""#) { c.token = token }
        if c.seat == 0 {
            c.phase = .joining
            enqueue(c, #"{"type":"create_room","mode":"time_attack","max_players":8}"#, type: "create_room")
        } else {
            c.phase = .waitingCode
        }
    case "room":
        if c.seat == 0, let code = stringField(b, #""code":""#) { rooms[c.room].code = code }
        if c.phase == .joining {
            c.phase = .lobby
            enqueue(c, #"{"type":"ready","ready":true}"#, type: "ready")
            rooms[c.room].readySent += 1
        }
    case "room_updated":
        // The host starts once it has seen all eight seats ready.
        if c.seat == 0 && !rooms[c.room].allReady {
            var count = 0, at = 0
            while let next = find(b, #""ready":true"#, from: at) { count += 1; at = next }
            if count >= 8 { rooms[c.room].allReady = true }
        }
    case "countdown":
        rooms[c.room].started = true
    case "race_started":
        rooms[c.room].started = true
        if c.phase != .racing { c.phase = .racing; racing += 1 }
    case "question":
        if c.phase != .racing { c.phase = .racing; racing += 1 }
        c.question = stringField(b, #""question":""#) ?? ""
        // The next drawing starts one cycle after the last began.
        let due = c.cycleStart == 0 ? now + UInt64(Double.random(in: 0..<opt.cycle) * 1e9) : c.cycleStart + UInt64(opt.cycle * 1e9)
        startCycle(c, at: max(now, due))
    case "guess":
        guard let points = intField(b, #""points":"#) else { break }
        // The guess answers the newest batch it covers; older batches it
        // also covers were coalesced by the server's ≤ 10 guesses/s.
        var newest: UInt64 = 0
        while let first = c.pending.first, first.points <= points {
            newest = first.at
            c.pending.removeFirst()
        }
        if newest > 0 && measuring && newest >= measureFrom {
            _ = strokeToGuess.record((now - newest) / 1000)
            // The server had started no guess for this player in the 100 ms
            // before the batch left (the last one arrived earlier still), so
            // its ≤ 10 guesses/s limit did not hold this one back.
            if newest >= c.lastGuessAt + 100_000_000 {
                _ = strokeToGuessOpen.record((now - newest) / 1000)
                timeline.note(guess: now - newest, at: now)
            }
        }
        c.lastGuessAt = now
        submitIfCovered(c, now: now)
    case "graded":
        graded(c, now: now)
    case "error":
        let code = stringField(b, #""code":""#) ?? "?"
        let request = stringField(b, #""request":""#) ?? "-"
        if (code == "players_not_ready" || code == "not_in_lobby") && (request == "start" || request == "lesson") { break }  // start retried by tick
        errorsByCode[code + "/" + request, default: 0] += 1
    case "moved":
        // The room is on another instance: the callback closes this
        // connection, and CLIENT_CLOSED connects again there.
        c.instance = stringField(b, #""instance":""#)
        c.hopping = true
        hops += 1
    case "finished", "standings":
        c.phase = .done
    case "pad_question", "pad_guess", "pad_graded", "pad_clear", "progress":
        break
    default:
        break
    }
}

// MARK: libwebsockets

func callback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?, _ inp: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
    guard let wsi else { return 0 }
    switch reason {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        guard let i = byWsi[wsi] else { return 0 }
        established += 1
        conns[i].open = true
        conns[i].phase = .welcome
        if opt.mode == "echo" {
            let c = conns[i]
            c.phase = .racing
            racing += 1
            c.question = "e\(i)"
            startCycle(c, at: nowNs() + UInt64(Double.random(in: 0..<opt.cycle) * 1e9))
        }
    case LWS_CALLBACK_CLIENT_RECEIVE:
        guard let i = byWsi[wsi], let inp else { return 0 }
        let c = conns[i]
        c.rx.append(contentsOf: UnsafeRawBufferPointer(start: inp, count: len))
        if lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0 {
            handle(c, c.rx, now: nowNs())
            c.rx.removeAll(keepingCapacity: true)
            if c.hopping { return -1 }
        }
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        guard let i = byWsi[wsi] else { return 0 }
        let c = conns[i]
        guard !c.outbox.isEmpty else { return 0 }
        write(wsi, c.outbox.removeFirst())
        if !c.outbox.isEmpty { lws_callback_on_writable(wsi) }
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        connectErrors += 1
        if let i = byWsi.removeValue(forKey: wsi) { conns[i].phase = .failed; conns[i].wsi = nil; conns[i].open = false }
    case LWS_CALLBACK_CLIENT_CLOSED:
        if let i = byWsi.removeValue(forKey: wsi) {
            conns[i].wsi = nil
            conns[i].open = false
            if conns[i].hopping && !stopping {
                conns[i].hopping = false
                conns[i].phase = .connecting
                reconnecting.append(i)
                return 0
            }
            if !stopping { unexpectedCloses += 1 }
            conns[i].phase = .failed
        }
    default:
        break
    }
    return 0
}

let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
protocols.initialize(repeating: lws_protocols(), count: 2)
let protoName = strdup("loadgen")!
protocols[0].name = UnsafePointer(protoName)
protocols[0].callback = callback
protocols[0].rx_buffer_size = 16 * 1024

lws_set_log_level(Int32(LLL_ERR), nil)
var info = lws_context_creation_info()
info.port = CONTEXT_PORT_NO_LISTEN
info.protocols = UnsafePointer(protocols)
info.gid = -1
info.uid = -1
// No fd_limit_per_thread (as in the server's WebServer): a per-thread limit
// below the file limit puts lws 4.1.6 on "slow fds handling", where
// `wsi_from_fd` scans the whole table on every socket event: a third of the
// load generator's CPU at 5,000 racers (10 % of the machine's samples,
// 2026-11-24), taken from the server it measures on the same 2 cores. The
// tables are sized to the file limit instead (bench.sh raises it).
info.timeout_secs = 20
guard let loop = mindpad_loop_new(opt.loop), let ctx = mindpad_loop_create_context(loop, &info) else {
    FileHandle.standardError.write("lws_create_context failed\n".data(using: .utf8)!)
    exit(1)
}

// The loop wakes at least every 5 ms for the timers.
nonisolated(unsafe) let wakeCtx = ctx
let waker = Thread {
    while true {
        usleep(5000)
        lws_cancel_service(wakeCtx)
    }
}
waker.start()

let address = strdup(opt.host)!
let path = strdup("/ws")!
/// `/ws?instance=<id>`, one C string per instance for the whole run (lws may keep the pointer).
var instancePaths: [String: UnsafeMutablePointer<CChar>] = [:]
func instancePath(_ id: String) -> UnsafeMutablePointer<CChar> {
    if let p = instancePaths[id] { return p }
    let p = strdup("/ws?instance=\(id)")!
    instancePaths[id] = p
    return p
}
let subprotocol = strdup(opt.mode == "echo" ? "echo" : "mindpad.v1")!
let sourceAddresses = (1...opt.sources).map { strdup("127.0.0.\($0)")! }
func connect(_ c: Conn) {
    var ci = lws_client_connect_info()
    if opt.sources > 1 { ci.iface = UnsafePointer(sourceAddresses[c.index % opt.sources]) }
    ci.context = ctx
    ci.address = UnsafePointer(address)
    ci.port = opt.port
    ci.path = UnsafePointer(c.instance.map(instancePath) ?? path)
    ci.host = UnsafePointer(address)
    ci.protocol = UnsafePointer(subprotocol)
    ci.local_protocol_name = UnsafePointer(protoName)
    if let wsi = lws_client_connect_via_info(&ci) {
        c.wsi = wsi
        byWsi[wsi] = c.index
    } else {
        connectErrors += 1
        c.phase = .failed
    }
}

// MARK: Run

let started = nowNs()
var connected = 0
let rampNs = 1e9 / opt.rampPerSecond
var readyAt: UInt64 = 0   // when every connection is up (and racing)
var measureEnd: UInt64 = 0
var cpuStart: UInt64 = 0, cpuEnd: UInt64 = 0
var threadsStart: [String: UInt64] = [:], threadsEnd: [String: UInt64] = [:]
var selfStart: UInt64 = 0, selfEnd: UInt64 = 0   // the load generator's own CPU
var machineStart: (busy: UInt64, total: UInt64)?, machineEnd: (busy: UInt64, total: UInt64)?
if let mark = opt.mark { unlink(mark) }
var rssMaxKB = 0
var rssBeforeKB = procKB(opt.serverPids, "VmRSS") ?? 0
var lastSample: UInt64 = 0
var lastCounterSample: UInt64 = 0
var waitsStart: [String: UInt64] = [:], waitsEnd: [String: UInt64] = [:]
var ownWaitStart: UInt64 = 0, ownWaitEnd: UInt64 = 0
var lastTick: UInt64 = 0
let hardDeadline = started + UInt64((Double(total) / opt.rampPerSecond + 60 + opt.warmup + opt.duration) * 1e9)

/// The counters read at the window's end.
func endWindow(_ now: UInt64) {
    (cpuEnd, threadsEnd, selfEnd, machineEnd) = ticksNow()
    (waitsEnd, ownWaitEnd) = (threadWaits(opt.serverPids), ownWaitNs())
    timeline.sample(Counters(waits: waitsEnd, ownWait: ownWaitEnd, serverTicks: cpuEnd, ownTicks: selfEnd, machine: machineEnd), at: now)
    measuring = false
}

while true {
    let now = nowNs()
    // Connect at the ramp rate.
    while connected < total && Double(now - started) >= Double(connected) * rampNs {
        connect(conns[connected])
        connected += 1
    }
    while let i = reconnecting.popLast() { connect(conns[i]) }
    serviceDue(now)
    if now >= lastTick + 10_000_000 {
        if measuring && lastTick > 0 { timeline.note(ownLag: now - (lastTick + 10_000_000), at: now) }
        lastTick = now
        tick(now)
    }
    let want = opt.mode == "idle" ? welcomed : racing
    let failed = connectErrors + unexpectedCloses
    if readyAt == 0 && connected == total && (want + failed >= total || now > hardDeadline - UInt64((opt.warmup + opt.duration) * 1e9)) {
        readyAt = now
    }
    if readyAt > 0 && !measuring && measureEnd == 0 && now >= readyAt + UInt64(opt.warmup * 1e9) {
        measuring = true
        measureFrom = now
        (cpuStart, threadsStart, selfStart, machineStart) = ticksNow()
        (waitsStart, ownWaitStart) = (threadWaits(opt.serverPids), ownWaitNs())
        timeline.from = now
        timeline.last = Counters(waits: waitsStart, ownWait: ownWaitStart, serverTicks: cpuStart, ownTicks: selfStart,
                                 machine: machineStart)
        lastCounterSample = now
        measureEnd = now + UInt64(opt.duration * 1e9)
        if let mark = opt.mark { FileManager.default.createFile(atPath: mark, contents: Data("\(opt.duration)\n".utf8)) }
    }
    if measuring && now >= lastCounterSample + 1_000_000_000 {
        lastCounterSample = now
        timeline.sample(.now(), at: now)
    }
    if measuring && now - lastSample > 500_000_000 {
        lastSample = now
        rssMaxKB = max(rssMaxKB, procKB(opt.serverPids, "VmRSS") ?? 0)
    }
    if measuring && now >= measureEnd {
        endWindow(now)
        break
    }
    if now > hardDeadline {
        // A window cut short by the deadline (racers still joining when it
        // began) still gets the server's CPU over what it measured.
        if measuring { endWindow(now) }
        break
    }
    _ = mindpad_loop_service(loop)
}
let windowSeconds = Double(nowNs() - measureFrom) / 1e9
// classroom: a batch of the window the projector had not seen 2 s before its end is lost.
if opt.mode == "classroom" {
    let cutoff = nowNs() - 2_000_000_000
    for c in conns { padsLost += c.padQueue.count { $0.at >= measureFrom && $0.at < cutoff } }
}
// Outstanding at the end of the window are not "lost": they were in flight.
stopping = true
let rssEndKB = procKB(opt.serverPids, "VmRSS") ?? 0
let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
let cpuPercent = cpuEnd > cpuStart ? Double(cpuEnd - cpuStart) / hz / windowSeconds * 100 : 0

func ms(_ us: UInt64) -> Double { (Double(us) / 1000 * 1000).rounded() / 1000 }
func summary(_ h: Histogram<UInt64>) -> [String: Any] {
    guard h.totalCount > 0 else { return ["count": 0] }
    return ["count": h.totalCount, "p50_ms": ms(h.valueAtPercentile(50)), "p90_ms": ms(h.valueAtPercentile(90)),
            "p99_ms": ms(h.valueAtPercentile(99)), "p999_ms": ms(h.valueAtPercentile(99.9)), "max_ms": ms(h.max)]
}
let liveConnections = conns.filter { $0.wsi != nil }.count
var report: [String: Any] = [
    "mode": opt.mode, "label": opt.label, "event_loop": String(cString: mindpad_loop_name(opt.loop)), "racers": opt.mode == "idle" ? 0 : total,
    "connections_wanted": total, "connections_open": liveConnections, "established": established,
    "racing": racing, "window_s": (windowSeconds * 10).rounded() / 10,
    "sent": sent, "received": received, "window_sent": windowSent, "window_received": windowReceived,
    "sent_by_type": sentByType, "received_by_type": receivedByType, "errors_by_code": errorsByCode,
    "lost_guesses": lostGuesses, "lost_grades": lostGrades, "connect_errors": connectErrors,
    "unexpected_closes": unexpectedCloses, "hops": hops,
    "pen_to_projector": summary(penToProjector), "pads_lost": padsLost, "pads_skipped": padsSkipped,
    "classes": classes.count, "projectors": opt.mode == "classroom" ? classes.count : 0,
    "stroke_to_guess": summary(strokeToGuess), "stroke_to_guess_unthrottled": summary(strokeToGuessOpen), "submit_to_grade": summary(submitToGrade),
    "server_cpu_percent": (cpuPercent * 10).rounded() / 10, "server_rss_before_kb": rssBeforeKB,
    "server_rss_max_kb": max(rssMaxKB, rssEndKB), "server_rss_end_kb": rssEndKB,
    // Each server thread's share of one core over the window (100 = a whole
    // core): is the service thread saturated, or waiting for a core?
    // The machine's busy time over the window, 100 = one core (200 = both of 2).
    "machine_cpu_percent": machineStart.flatMap { a in machineEnd.map { b in
        b.total > a.total ? (Double(b.busy - a.busy) / hz / windowSeconds * 1000).rounded() / 10 : 0 } } ?? 0,
    "loadgen_cpu_percent": selfEnd > selfStart ? (Double(selfEnd - selfStart) / hz / windowSeconds * 1000).rounded() / 10 : 0,
    "server_threads_cpu_percent": threadsEnd.reduce(into: [String: Double]()) { out, entry in
        let used = entry.value - min(entry.value, threadsStart[entry.key] ?? 0)
        if used > 0 { out[entry.key] = (Double(used) / hz / windowSeconds * 1000).rounded() / 10 }
    },
    // Each server thread's and our own time spent waiting for a core, as a
    // share of the window (100 = waiting the whole window).
    "server_threads_wait_percent": waitsEnd.reduce(into: [String: Double]()) { out, entry in
        let waited = entry.value - min(entry.value, waitsStart[entry.key] ?? 0)
        if waited > 0 { out[entry.key] = (Double(waited) / 1e9 / windowSeconds * 1000).rounded() / 10 }
    },
    "loadgen_wait_percent": (Double(ownWaitEnd - min(ownWaitEnd, ownWaitStart)) / 1e9 / windowSeconds * 1000).rounded() / 10,
    "timeline": timeline.json,
]
if opt.mode == "idle", liveConnections > 0 {
    report["rss_per_connection_kb"] = (Double(rssEndKB - rssBeforeKB) / Double(liveConnections) * 10).rounded() / 10
}
let json = try! JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])
if let out = opt.out { try! json.write(to: URL(fileURLWithPath: out)) }
print(String(decoding: json, as: UTF8.self))
fflush(stdout)
// Leave without the close handshakes: the server sees the sockets go.
exit(0)
