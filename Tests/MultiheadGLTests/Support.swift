import Multihead
@testable import MultiheadGL
import MultiheadTesting
import MultiheadX11
import Testing

/// Draws what the GL tests read back: a clear colour, then a green triangle with its corners at
/// (-0.5, -0.5), (0.5, -0.5) and (0, 0.5) of the viewport (its centre is inside, its corners are not).
/// Counts its frames and the sizes it was told of.
@MainActor
final class TriangleDelegate: GLViewDelegate {
    var clear: Color
    var frames = 0
    var sizes: [Size] = []
    /// Made once, at the first frame: later frames (after a hotplug moved the view) use the same program.
    var program: GLProgram?
    var programs: Set<GLuint> = []
    var buffer: GLuint = 0
    /// Runs inside `draw(in:)`, after the drawing (a test that ends the view there).
    var afterDraw: ((GLView) -> Void)?

    init(clear: Color) { self.clear = clear }

    func draw(in view: GLView) {
        frames += 1
        glClearColor(Float(clear.red), Float(clear.green), Float(clear.blue), 1)
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
        guard let program, glIsProgram(program.id) == GLboolean(GL_TRUE) else { return }
        programs.insert(program.id)
        program.use()
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glEnableVertexAttribArray(0)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        afterDraw?(view)
    }

    func glView(_ view: GLView, drawableSizeWillChange size: Size) { sizes.append(size) }
}

/// A shown window on `screen` filled by a GL view drawn by `delegate` at `framesPerSecond`, and the view.
/// The tests ask for few frames: each one holds the main actor, which the whole suite shares, while
/// llvmpipe draws it.
@MainActor
func glWindow(_ screen: Screen, _ frame: Rect, _ delegate: TriangleDelegate, framesPerSecond: Int = 10) -> (Window, GLView) {
    let window = Window(frame: frame, screen: screen)
    window.backgroundColor = .white
    let view = GLView(frame: window.bounds)
    view.preferredFramesPerSecond = framesPerSecond
    view.delegate = delegate
    window.addSubview(view)
    window.isHidden = false
    return (window, view)
}

/// The pixel the server shows at a point of a window (in points from its top-left corner), read alone
/// over the application's own connection: a test's waits read it every turn, and a whole screen each
/// time (a new connection and 8 MB) held the main actor that every test's frame clock shares.
@MainActor
func pixel(_ server: VirtualServer, _ window: Window, at p: Point) -> Color? {
    let screen = window.screen, s = screen.scale
    let x = (screen.frame.minX + (window.frame.minX + p.x) * s).rounded(.down)
    let y = (screen.frame.minY + (window.frame.minY + p.y) * s).rounded(.down)
    guard let shot = try? window.application.backend.pixels(in: Rect(x: x, y: y, width: 1, height: 1)) else { return nil }
    return shot.color(x: 0, y: 0)
}

extension Color {
    /// Whether each channel is within 2/255 of `other`'s.
    func near(_ other: Color, within tolerance: Double = 2.0 / 255) -> Bool {
        abs(red - other.red) <= tolerance && abs(green - other.green) <= tolerance && abs(blue - other.blue) <= tolerance
    }
}
