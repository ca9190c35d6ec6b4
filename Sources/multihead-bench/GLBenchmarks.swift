import Foundation
import Multihead
import MultiheadGL
import MultiheadTesting
import MultiheadX11

/// Clears to blue and draws one green triangle, as the C baseline's windows do; the first view's frames
/// record how far from its frame's time each began.
@MainActor
final class BenchTriangle: GLViewDelegate {
    private var program: GLProgram?
    private var buffer: GLuint = 0
    var frames = 0
    /// The time of the frame being drawn (a display link's, first on the clock), and each frame's error.
    var frameTime: () -> Double = { 0 }
    var pacing: [Double]?

    func draw(in view: GLView) {
        frames += 1
        if pacing != nil { pacing?.append(abs(Double(DispatchTime.now().uptimeNanoseconds) / 1e9 - frameTime()) * 1e6) }
        glClearColor(0, 0, 1, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        if program == nil {
            program = try? GLProgram(
                vertexSource: "#version 300 es\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }",
                fragmentSource: "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(0.0, 1.0, 0.0, 1.0); }")
            let corners: [Float] = [-0.5, -0.5, 0.5, -0.5, 0, 0.5]
            glGenBuffers(1, &buffer)
            glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
            corners.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        }
        program?.use()
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glEnableVertexAttribArray(0)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}

/// `count` GL views of `width`×`height` on windows of their own, at 60 fps for `frames` frames, against
/// the C baseline's EGL windows doing the same on the same server: CPU a frame, pacing and memory.
@MainActor
func benchGL(_ server: VirtualServer, width: Double, height: Double, frames: Int, count: Int) async throws {
    let c = try RunningBaseline(["gl", "\(Int(width))", "\(Int(height))", "\(frames)", "\(count)"], environment: server.environment)
        .figures(["median_us", "pacing_us", "rss_mb"])
    let (app, backend) = try makeX11App(server)
    defer { backend.stop() }
    var frameTime = 0.0
    // First on the clock: each frame its timestamp is set before the views draw.
    let clockLink = app.mainScreen.displayLink { frameTime = $0.timestamp }
    defer { clockLink.invalidate() }
    func show(_ frame: Rect) -> (Window, BenchTriangle) {
        let w = Window(frame: frame, screen: app.mainScreen)
        let view = GLView(frame: w.bounds)
        let d = BenchTriangle()
        view.delegate = d
        w.addSubview(view)
        w.isHidden = false
        return (w, d)
    }
    // What the first view sets up once (the driver, its shader compiler) is no view's memory, as in C.
    let warm = show(Rect(x: 0, y: 0, width: 64, height: 64))
    guard await app.run(until: { warm.1.frames > 0 }, timeout: .seconds(30)) else { throw DemoBenchError.stalled }
    let before = Double(residentKB())
    let shown = (0..<count).map { i in
        show(Rect(x: Double(i % 4) * width / 4, y: Double(i / 4) * height / 4, width: width, height: height))
    }
    guard await app.run(until: { shown.allSatisfy { $0.1.frames > 0 } }, timeout: .seconds(30)) else { throw DemoBenchError.stalled }
    backend.waitForReads()
    let rss = (Double(residentKB()) - before) / Double(count) / 1024
    warm.0.isHidden = true
    let first = shown[0].1
    first.frameTime = { frameTime }
    first.pacing = []
    let start = cpuMicros(), from = first.frames
    guard await app.run(until: { first.frames >= from + frames }, timeout: .seconds(Double(frames))) else { throw DemoBenchError.stalled }
    let cpu = (cpuMicros() - start) / Double(first.frames - from)
    let size = "\(Int(width))×\(Int(height))"
    if count == 1 {
        row("GLView \(size) at 60 fps, clear and one triangle: CPU per frame (\(frames) frames; C: EGL window surface)", cpu, c[0])
        row("GLView frame pacing: |draw(in:) − frame time|, median of \(frames) frames", median(first.pacing ?? []), c[1])
        row("resident memory per \(size) GL window (its framebuffer, read-back frame and window pixels)", rss, c[2], unit: "MB")
    } else {
        row("\(count) GLViews of \(size) on \(count) windows at 60 fps: CPU per frame (\(frames) frames)", cpu, c[0])
    }
    withExtendedLifetime((warm, shown)) {}
}

/// A benchmark's frames did not come.
enum DemoBenchError: Error { case stalled }
