import CEGL
import Foundation

/// A linked OpenGL ES shader program (what GLKBaseEffect spares a GLKit app): compiled from GLSL ES
/// source in the current context, and living as long as that context (a `GLView`'s: the view's life).
public struct GLProgram: Sendable, Equatable {
    /// GL's name for the program, for `glUseProgram` and the `glUniform…` calls.
    public let id: GLuint

    /// Compiles and links a vertex and a fragment shader in the current context; throws with GL's log
    /// when either does not compile or they do not link. `glCompileShader`, `glLinkProgram`.
    public init(vertexSource: String, fragmentSource: String) throws(GLProgramError) {
        let vertex = try Self.compile(GLenum(GL_VERTEX_SHADER), vertexSource, stage: "vertex")
        defer { glDeleteShader(vertex) }
        let fragment = try Self.compile(GLenum(GL_FRAGMENT_SHADER), fragmentSource, stage: "fragment")
        defer { glDeleteShader(fragment) }
        let program = glCreateProgram()
        glAttachShader(program, vertex)
        glAttachShader(program, fragment)
        glLinkProgram(program)
        var linked: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &linked)
        guard linked == GL_TRUE else {
            let log = Self.log(program, glGetProgramiv, glGetProgramInfoLog)
            glDeleteProgram(program)
            throw .link(log: log)
        }
        id = program
    }

    /// Makes it the program the next draws use. `glUseProgram`.
    public func use() { glUseProgram(id) }

    /// Where a uniform is (-1 when the program has none of that name). `glGetUniformLocation`.
    public func uniformLocation(_ name: String) -> GLint { glGetUniformLocation(id, name) }

    private static func compile(_ type: GLenum, _ source: String, stage: String) throws(GLProgramError) -> GLuint {
        let shader = glCreateShader(type)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var compiled: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
        guard compiled == GL_TRUE else {
            let log = Self.log(shader, glGetShaderiv, glGetShaderInfoLog)
            glDeleteShader(shader)
            throw .compile(stage: stage, log: log)
        }
        return shader
    }

    /// A shader's or program's info log.
    private static func log(_ object: GLuint, _ getInt: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
                            _ getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void) -> String {
        var length: GLint = 0
        getInt(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        guard length > 0 else { return "" }
        var text = [GLchar](repeating: 0, count: Int(length) + 1)
        getLog(object, GLsizei(length), nil, &text)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A shader program that did not build: GL's own words.
public enum GLProgramError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A shader did not compile (`stage`: "vertex" or "fragment").
    case compile(stage: String, log: String)
    /// The shaders did not link.
    case link(log: String)

    /// The stage and GL's log.
    public var description: String {
        switch self {
        case .compile(let stage, let log): "the \(stage) shader did not compile: \(log)"
        case .link(let log): "the program did not link: \(log)"
        }
    }
}
