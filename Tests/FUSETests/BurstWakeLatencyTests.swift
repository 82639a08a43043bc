@testable import FUSE
import Foundation
import Synchronization
import Testing

/// A burst of requests keeps the CPUs polling (a CPU latency request of 0 µs) until it ends;
/// a mount told not to asks nothing. Needs root, as every mounted test; serialized with them,
/// since each looks at the request this process holds.
extension MountedTests {
    @Suite("A burst of requests keeps the CPUs awake until it ends") struct BurstWakeups {
        @Test("held: the kernel's CPU latency limit reads 0; released: given back")
        func holdAndRelease() throws {
            let latency = BurstWakeLatency(enabled: true)
            latency.hold()
            defer { latency.release() }
            #expect(latency.isHeld)
            #expect(try Self.kernelLimit() == 0)
            latency.release()
            #expect(!latency.isHeld)
        }

        @Test("a device that cannot be opened (no root) or a mount told not to: nothing held, never asked again")
        func unavailable() {
            let missing = BurstWakeLatency(enabled: true, device: "/nonexistent/cpu_dma_latency")
            missing.hold()
            #expect(!missing.isHeld)
            let off = BurstWakeLatency(enabled: false)
            off.hold()
            #expect(!off.isHeld)
        }

        /// The limit all requests give together (the device reads it back).
        static func kernelLimit() throws -> Int32 {
            let handle = try #require(FileHandle(forReadingAtPath: BurstWakeLatency.device))
            defer { try? handle.close() }
            let bytes = try #require(try handle.read(upToCount: 4))
            return bytes.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
        }

        @Test("opens of many files from several threads: held during the burst, released after it")
        func heldDuringABurst() throws {
            try #require(getuid() == 0, "the CPU latency device is root's")
            let mount = try TestMount()
            defer { try? mount.finish() }
            let burst = FileBurst(mount.path("big"), names: InMemoryFilesystem.bigNames)
            #expect(Self.waitFor(seconds: 20) { Self.deviceHeld() }, "never held while files were opened in a burst")
            burst.stop()
            #expect(Self.waitFor(seconds: 5) { !Self.deviceHeld() }, "still held after the burst")
        }

        @Test("a mount told not to asks nothing, burst or not")
        func notWhenTurnedOff() throws {
            let mount = try TestMount(keepsCPUsAwakeInBursts: false)
            defer { try? mount.finish() }
            let burst = FileBurst(mount.path("big"), names: InMemoryFilesystem.bigNames)
            let held = Self.waitFor(seconds: 2) { Self.deviceHeld() }
            burst.stop()
            #expect(!held)
        }

        /// Whether this process has the CPU latency device open (only one mount at a time
        /// runs in it: `MountedTests` is serialized).
        static func deviceHeld() -> Bool {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return descriptors.contains { name in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) == BurstWakeLatency.device
            }
        }

        static func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while Date() < deadline {
                if condition() { return true }
                Thread.sleep(forTimeInterval: 0.005)
            }
            return condition()
        }
    }
}

/// Threads that open, read and close the files of a directory over and over until stopped:
/// each round is an OPEN and a RELEASE, and with three threads one is always waiting.
private final class FileBurst: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let stopped = DispatchGroup()

    init(_ directory: String, names: [String], threads: Int = 3) {
        for _ in 0..<threads {
            stopped.enter()
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !stopping.load(ordering: .relaxed) {
                    for name in names {
                        let descriptor = open(directory + "/" + name, O_RDONLY)
                        guard descriptor >= 0 else { continue }
                        _ = read(descriptor, &buffer, buffer.count)
                        close(descriptor)
                    }
                }
                stopped.leave()
            }.start()
        }
    }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        stopped.wait()
    }
}
