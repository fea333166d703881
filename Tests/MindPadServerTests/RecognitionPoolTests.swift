import Foundation
import MindPadRecognition
import Synchronization
import Testing
@testable import MindPadServer

/// The recognition pool reads one digit (MindPad) and whole numbers
/// (Add-One) on the same threads, times each reading, and refuses work
/// once stopped.
@Suite struct RecognitionPoolTests {
    @Test func digitsAndNumbersShareThePoolsThreads() throws {
        let metrics = ServerMetrics()
        let pool = try RecognitionPool.bundled(threads: 2, metrics: metrics)
        let numbers = Mutex<[String]>([])
        let digits = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let written = ["4096", "010", "275318"]
        for number in written {
            pool.readNumber(Drawing(strokes: DigitTemplates.strokes(forNumber: number))) { result in
                numbers.withLock { $0.append((try? result.get())?.number ?? "failed") }
                done.signal()
            }
            pool.recognize(Drawing(strokes: DigitTemplates.strokes(for: 7))) { result in
                digits.withLock { $0.append((try? result.get())?.digit ?? -1) }
                done.signal()
            }
        }
        for _ in 0..<(2 * written.count) { #expect(done.wait(timeout: .now() + 30) == .success) }
        #expect(numbers.withLock { $0.sorted() } == written.sorted())
        #expect(digits.withLock { $0 } == [7, 7, 7])
        let text = String(decoding: metrics.render(), as: UTF8.self)
        #expect(text.contains("mindpad_recognition_seconds_count 6"), "\(text.split(separator: "\n").filter { $0.contains("recognition") })")
        // Each reading's wait in the queue, too.
        #expect(text.contains("mindpad_recognition_wait_seconds_count 6"))

        pool.shutdown()
        let refused = Mutex<RecognitionError?>(nil)
        pool.readNumber(Drawing(strokes: DigitTemplates.strokes(forNumber: "12"))) { result in
            if case .failure(let error) = result { refused.withLock { $0 = error } }
        }
        #expect(refused.withLock { $0 }?.detail.contains("stopped") == true)
    }

    /// A scribble on the number pad runs into the work limit and is counted
    /// for the operator (`mindpad_number_readings_cut_short_total`); a
    /// handwritten number is not.
    @Test func scribblesAreCountedCutShort() throws {
        let metrics = ServerMetrics()
        let pool = try RecognitionPool.bundled(threads: 1, metrics: metrics)
        defer { pool.shutdown() }
        var seed: UInt64 = 7
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let scribble = Drawing(strokes: (0..<64).map { _ in
            (0..<156).map { j in StrokePoint(x: random() * 1200, y: random() * 200, t: Double(j)) }
        })
        let readings = Mutex<[NumberReading]>([])
        let done = DispatchSemaphore(value: 0)
        for drawing in [scribble, Drawing(strokes: DigitTemplates.strokes(forNumber: "4096"))] {
            pool.readNumber(drawing) { result in
                if let reading = try? result.get() { readings.withLock { $0.append(reading) } }
                done.signal()
            }
        }
        for _ in 0..<2 { #expect(done.wait(timeout: .now() + 60) == .success) }
        let read = readings.withLock { $0 }
        #expect(read.count == 2)
        #expect(read.map(\.cutShort) == [true, false])
        #expect(read.last?.number == "4096")
        let text = String(decoding: metrics.render(), as: UTF8.self)
        #expect(text.contains("mindpad_number_readings_cut_short_total 1"), "\(text.split(separator: "\n").filter { $0.contains("cut_short") })")
    }
}
