import Foundation
import Multihead
import MultiheadGL

/// The demo's GL scene: a triangle turning once every four seconds, drawn with OpenGL ES 3 each frame
/// of its screen, under a HUD label that says the rate and the frame. Every colour is light enough
/// (red ≥ 0x4C) that the tour's checks for dark text pixels see none of it.
@MainActor
final class SpinningTriangle: GLViewDelegate {
    /// The scene's background (also the view's, shown where GL cannot be had).
    static let background = Color(red: 0.3, green: 0.35, blue: 0.5)
    private var program: GLProgram?
    private var buffer: GLuint = 0
    private var angleLocation: GLint = -1
    private let start = ProcessInfo.processInfo.systemUptime
    let hud: Label

    init(hud: Label) { self.hud = hud }

    func draw(in view: GLView) {
        let bg = Self.background
        glClearColor(Float(bg.red), Float(bg.green), Float(bg.blue), 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        if program == nil { prepare() }
        guard let program else { return }
        program.use()
        let turn = (ProcessInfo.processInfo.systemUptime - start) / 4
        glUniform1f(angleLocation, Float(turn.truncatingRemainder(dividingBy: 1) * 2 * Double.pi))
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        let stride = GLsizei(5 * MemoryLayout<Float>.size)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
        glVertexAttribPointer(1, 3, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, UnsafeRawPointer(bitPattern: 2 * MemoryLayout<Float>.size))
        glEnableVertexAttribArray(0)
        glEnableVertexAttribArray(1)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        let screenRate = view.window?.screen.maximumFramesPerSecond ?? 60
        let rate = view.preferredFramesPerSecond > 0 ? min(view.preferredFramesPerSecond, screenRate) : screenRate
        hud.text = "OpenGL ES · \(rate) fps · frame \(view.framesDrawn + 1)"
    }

    /// The program and the triangle's corners (position, colour), made once in the view's context.
    private func prepare() {
        do {
            let made = try GLProgram(
                vertexSource: """
                #version 300 es
                layout(location = 0) in vec2 position;
                layout(location = 1) in vec3 color;
                uniform float angle;
                out vec3 shade;
                void main() {
                    mat2 turn = mat2(cos(angle), sin(angle), -sin(angle), cos(angle));
                    gl_Position = vec4(turn * position, 0.0, 1.0);
                    shade = color;
                }
                """,
                fragmentSource: """
                #version 300 es
                precision mediump float;
                in vec3 shade;
                out vec4 fragment;
                void main() { fragment = vec4(shade, 1.0); }
                """)
            angleLocation = made.uniformLocation("angle")
            program = made
        } catch {
            Application.logger.warning("the demo's GL scene has no program: \(error)")
            return
        }
        let corners: [Float] = [0, 0.7, 1, 0.55, 0.1, -0.6, -0.4, 1, 0.3, 0.8, 0.6, -0.4, 1, 0.9, 0.3]
        glGenBuffers(1, &buffer)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        corners.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
    }
}

/// A window with the GL scene and its HUD, in the bottom-right corner of a screen plugged while the demo
/// runs.
@MainActor
final class SceneWindow: Window {
    static let size = Size(width: 320, height: 240)
    let glView: GLView
    let scene: SpinningTriangle

    init(screen: Screen) {
        let hud = Label(frame: Rect(x: 8, y: 8, width: Self.size.width - 16, height: 24))
        hud.backgroundColor = Color(red: 0.3, green: 0.3, blue: 0.35)
        hud.textColor = .white
        hud.fontSize = 14
        scene = SpinningTriangle(hud: hud)
        glView = GLView(frame: Rect(origin: .zero, size: Self.size))
        glView.backgroundColor = SpinningTriangle.background
        glView.delegate = scene
        super.init(frame: Self.frame(on: screen), screen: screen)
        addSubview(glView)
        glView.addSubview(hud)
    }

    /// Its place: the screen's bottom-right corner, 20 points in.
    static func frame(on screen: Screen) -> Rect {
        Rect(x: screen.bounds.width - size.width - 20, y: screen.bounds.height - size.height - 20, width: size.width, height: size.height)
    }
}
