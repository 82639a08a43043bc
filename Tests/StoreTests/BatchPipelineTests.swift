import Foundation
@testable import Import
import Synchronization
import Testing

@Suite("import's read-ahead pipeline")
struct BatchPipelineTests {
    struct Failure: Error, Equatable { let side: String }

    /// What the producer did, seen from the consumer's thread.
    final class ProducerLog: Sendable {
        let sent = Atomic(0)
        let ended = Atomic(false)

        var sentCount: Int { sent.load(ordering: .sequentiallyConsistent) }
        var hasEnded: Bool { ended.load(ordering: .sequentiallyConsistent) }
    }

    @Test("every item reaches the consumer in order, and the producer is never more than one item ahead")
    func order() throws {
        let log = ProducerLog()
        var received: [Int] = []
        try BatchPipeline<Int>(capacity: 1).run(produce: { sender in
            for item in 0..<200 {
                guard sender.send(item) else { return }
                log.sent.add(1, ordering: .sequentiallyConsistent)
            }
        }, consume: { item in
            // The consumer is the slow side, like SQLite's writes in an import.
            if item % 20 == 0 { Thread.sleep(forTimeInterval: 0.002) }
            let ahead = log.sentCount - received.count
            #expect(ahead <= 2, "one item waiting and the one just taken: \(ahead) sent but not consumed")
            received.append(item)
        })
        #expect(received == Array(0..<200))
    }

    @Test("a producer's error reaches the caller after the items sent before it")
    func producerFails() {
        var received: [Int] = []
        #expect(throws: Failure(side: "producer")) {
            try BatchPipeline<Int>().run(produce: { sender in
                for item in 0..<5 { _ = sender.send(item) }
                throw Failure(side: "producer")
            }, consume: { received.append($0) })
        }
        #expect(received == [0, 1, 2, 3, 4])
    }

    @Test("a consumer's error stops the producer, and run returns only after the producer has ended")
    func consumerFails() {
        let log = ProducerLog()
        #expect(throws: Failure(side: "consumer")) {
            try BatchPipeline<Int>().run(produce: { sender in
                defer { log.ended.store(true, ordering: .sequentiallyConsistent) }
                var item = 0
                while sender.send(item) {
                    log.sent.add(1, ordering: .sequentiallyConsistent)
                    item += 1
                }
            }, consume: { item in
                if item == 3 { throw Failure(side: "consumer") }
            })
        }
        #expect(log.hasEnded, "the producer's thread had finished")
        #expect(log.sentCount <= 5, "it stopped at the consumer's error")
    }
}
