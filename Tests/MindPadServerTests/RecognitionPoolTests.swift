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
}
