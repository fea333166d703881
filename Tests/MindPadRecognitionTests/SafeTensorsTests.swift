import Testing
@testable import MindPadRecognition

private func file(header: String, data: [UInt8]) -> [UInt8] {
    let h = Array(header.utf8)
    var out = (0..<8).map { UInt8((UInt64(h.count) >> (8 * UInt64($0))) & 0xFF) }
    out += h
    out += data
    return out
}

private func code(_ bytes: [UInt8]) -> RecognitionError.Code? {
    do { _ = try SafeTensors(bytes: bytes); return nil } catch { return error.code }
}

@Suite struct SafeTensorsTests {
    let two: [UInt8] = [0, 0, 0x80, 0x3F, 0, 0, 0, 0x40]  // 1.0, 2.0

    @Test func readsTensorsAndMetadata() throws {
        let f = try SafeTensors(bytes: file(
            header: #"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"__metadata__":{"k":"v"}}  "#,
            data: two))
        #expect(f.tensors["a"]?.values == [1, 2])
        #expect(f.tensors["a"]?.shape == [2])
        #expect(f.metadata == ["k": "v"])
    }

    @Test func refusesCorruptFiles() {
        #expect(code([1, 2, 3]) == .invalidModel)
        #expect(code(file(header: "{", data: [])) == .invalidModel)
        #expect(code(file(header: #"{"a":{"dtype":"F16","shape":[4],"data_offsets":[0,8]}}"#, data: two)) == .invalidModel)
        #expect(code(file(header: #"{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#, data: two)) == .invalidModel)
        #expect(code(file(header: #"{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}"#, data: two)) == .invalidModel)
        #expect(code(file(header: #"{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}"#, data: two)) == .invalidModel)
        var huge = file(header: "{}", data: [])
        huge[7] = 0x7F
        #expect(code(huge) == .invalidModel)
    }

    @Test func refusesAnotherArchitecture() throws {
        let f = try SafeTensors(bytes: file(
            header: #"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"__metadata__":{"architecture":"x"}}"#,
            data: two))
        #expect(throws: RecognitionError.self) { try DigitNetwork(f) }
    }
}
