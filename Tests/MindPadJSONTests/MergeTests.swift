import MindPadJSON
import MindPadRules
import Testing

/// Laying one JSON object over another (a kind's result detail and its
/// replay part, `ResultDetail`), and a part's shape in nulls.
@Suite struct MergeTests {
    @Test func objectsMergeMemberByMemberAndAnythingElseIsReplaced() throws {
        let base = try JSON.parse(#"{"path":{"rows":4,"route":null},"n":1}"#)
        let over = try JSON.parse(#"{"path":{"route":[[1,1,0]],"extra":true},"m":2}"#)
        #expect(base.merging(over).text == #"{"path":{"rows":4,"route":[[1,1,0]],"extra":true},"n":1,"m":2}"#)
        // Not both objects: the value laid over wins, whole.
        #expect(JSON.int(1).merging(.string("x")) == .string("x"))
        #expect(base.merging(.array([])) == .array([]))
        #expect(try JSON.parse(#"{"a":[1,2]}"#).merging(try JSON.parse(#"{"a":{"b":1}}"#)).text == #"{"a":{"b":1}}"#)
        #expect(base.merging(.object([])) == base)
    }

    @Test func aPartsShapeInNullsKeepsItsObjects() throws {
        #expect(try JSON.parse(#"{"path":{"route":[[1,1,0]],"k":{"x":3}}}"#).nullingLeaves.text == #"{"path":{"route":null,"k":{"x":null}}}"#)
        #expect(JSON.int(3).nullingLeaves == .null)
    }

    /// What is stored says what the replay part held, in nulls; what the
    /// replay shows is the whole; a detail crosses the journal as text.
    @Test func aResultDetailStoresAndReplaysItsParts() throws {
        let detail = ResultDetail(members: try JSON.parse(#"{"tally":{"n":2}}"#),
                                  replay: try JSON.parse(#"{"tally":{"taps":[5,9]}}"#))
        #expect(detail.storedMembers.text == #"{"tally":{"n":2,"taps":null}}"#)
        #expect(detail.replayed.text == #"{"tally":{"n":2,"taps":[5,9]}}"#)
        #expect(detail.storedMembers.merging(detail.replay!) == detail.replayed)
        let plain = ResultDetail(members: .object([("k", .int(1))]))
        #expect(plain.storedMembers == plain.members && plain.replayed == plain.members)
        let coded = try JSONValueDecoder().decode(ResultDetail.self, from: try JSONValueEncoder().encode(detail))
        #expect(coded == detail && coded.hashValue == detail.hashValue)
    }
}
