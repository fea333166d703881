@testable import MindPadHTTP
@testable import MindPadTransport
import Dispatch
import Foundation
import MindPadServer
import MindPadTestSupport
import Synchronization
import Testing

/// The loops other than the default (`MINDPAD_EVENT_LOOP`), so they do not
/// rot while the rest of the suite runs on the default: HTTP, WebSockets,
/// jobs posted from other threads and service timers on each, the idle
/// service thread blocked in that loop's wait (`poll` or `epoll_wait`), and
/// a real server racing on it.
@Suite(.serialized) struct EventLoopLiveTests {
    static let others = EventLoopKind.allCases.filter { $0 != .standard }

    /// What the service thread is blocked in: the first field of
    /// /proc/self/task/<tid>/syscall (the syscall number; "running" if none).
    static func blockedIn(pid: Int32, tid: Int32) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/syscall", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.map(String.init)
    }

    /// Syscall numbers of epoll_wait / epoll_pwait / epoll_pwait2 and of poll / ppoll.
    #if arch(x86_64)
    static let epollWaits: Set<String> = ["232", "281", "441"]
    static let polls: Set<String> = ["7", "271"]
    #elseif arch(arm64)
    static let epollWaits: Set<String> = ["22", "441"]
    static let polls: Set<String> = ["73"]
    #endif

    /// The syscalls an idle service thread on `loop` waits in.
    static func waits(of loop: EventLoopKind) -> Set<String> {
        switch loop {
        case .poll: polls
        case .libuv: epollWaits
        }
    }

    /// Waits (bounded) until the thread is blocked in one of `calls`; returns
    /// the last syscall seen.
    static func waitUntilBlocked(pid: Int32, tid: Int32, in calls: Set<String>) -> String? {
        let deadline = ContinuousClock.now + .seconds(5)
        var seen: String?
        while ContinuousClock.now < deadline {
            seen = blockedIn(pid: pid, tid: tid)
            if let seen, calls.contains(seen) { return seen }
            usleep(10_000)
        }
        return seen
    }

    final class Holder: @unchecked Sendable {
        var timers: ServiceTimers?
    }

    @Test(arguments: Self.others)
    func transportRunsOnTheLoop(_ loop: EventLoopKind) throws {
        let delegate = ScriptedDelegate()
        let server = WebServer(options: WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil, eventLoop: loop))
        server.delegate = delegate
        try server.start()
        defer {
            server.stop()
            server.waitUntilStopped()
        }

        // A job posted from another thread runs on the service thread.
        let tid = Mutex<Int32>(0)
        let ran = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.post {
                // "<pid>/task/<tid>": this thread's id.
                let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
                tid.withLock { $0 = Int32(me.split(separator: "/").last ?? "") ?? 0 }
                #expect(server.isServiceThread)
                ran.signal()
            }
        }
        #expect(ran.wait(timeout: .now() + 5) == .success)

        // A service timer fires, never early, and a job it schedules runs on a later turn.
        let holder = Holder()
        let fired = DispatchSemaphore(value: 0)
        let early = Mutex<Bool>(false)
        server.post {
            let timers = ServiceTimers(server: server)
            holder.timers = timers
            let due = ContinuousClock.now + .milliseconds(40)
            timers.schedule(at: due) {
                early.withLock { $0 = ContinuousClock.now < due }
                timers.schedule(after: .zero) { fired.signal() }
            }
        }
        #expect(fired.wait(timeout: .now() + 5) == .success)
        #expect(early.withLock { $0 } == false)

        // HTTP, answered later from another thread (a posted job).
        let reply = try TestHTTP.request(port: server.port, path: "/api/x?q=loop")
        #expect(reply.status == 200)
        #expect(try reply.json()["q"] as? String == "loop")

        // A WebSocket (the raw socket handed to lws' WebSocket vhost), and
        // sends from a foreign thread, in order.
        let ws = try TestWebSocket(port: server.port)
        #expect(try ws.receiveText().hasPrefix("welcome 127.0.0.1"))
        try ws.sendText("burst 200")
        for i in 0..<200 { #expect(try ws.receiveText() == "m\(i)") }

        // Idle, the service thread waits in its loop's wait (epoll_wait for libuv, poll for poll).
        let serviceThread = tid.withLock { $0 }
        let blocked = Self.waitUntilBlocked(pid: getpid(), tid: serviceThread, in: Self.waits(of: loop))
        #expect(blocked.map(Self.waits(of: loop).contains) == true, "service thread blocked in syscall \(blocked ?? "?")")
    }

    /// The real binary on the loop: a solo race to its result (timers, the
    /// recognition and database workers posting back), HTTP beside it, and
    /// SIGINT still the application's (a clean stop, not the event library's).
    @Test(arguments: Self.others)
    func aRealServerRacesOnTheLoop(_ loop: EventLoopKind) throws {
        let (db, server, port) = try RealtimeLiveTests.startServer(environment: ["MINDPAD_EVENT_LOOP": loop.rawValue])
        defer { db.drop() }
        #expect(server.output.contains("event_loop=\(loop.rawValue)"))
        let health = try TestHTTP.request(port: port, path: "/healthz")
        #expect(health.status == 200)

        let ed = try RealtimeLiveTests.soloRace(port: port, name: "Ed", mode: "normal")
        for index in 0..<10 {
            let question = try ed.next("question")
            let graded = try ed.answer(expectedDigit(question), question: "r1q\(index)")
            #expect(graded["correct"] as? Bool == true)
        }
        #expect(try ed.next("finished")["result"] as? [String: Any] != nil)
        #expect(try ed.next("result_saved")["personal_best"] as? Bool == true)

        // The service thread (named mindpad-lws) waits in its loop's wait.
        let pid = server.process.processIdentifier
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let lws = tasks.compactMap(Int32.init).first { tid in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8))?.hasPrefix("mindpad-lws") == true
        }
        let serviceThread = try #require(lws)
        let blocked = Self.waitUntilBlocked(pid: pid, tid: serviceThread, in: Self.waits(of: loop))
        #expect(blocked.map(Self.waits(of: loop).contains) == true, "service thread blocked in syscall \(blocked ?? "?")")

        #expect(server.stop(signal: SIGINT) != nil)
        #expect(server.process.terminationStatus == 0)
        #expect(server.output.contains("bye"))
    }
}
