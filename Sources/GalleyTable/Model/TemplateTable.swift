// The templates a table's rows use, each numbered once, so that a row keeps a small number
// rather than a reference, and a kind is looked up in the registry once.

import GalleyLayout

/// A registry's templates as a table's rows use them: numbered in the order first used.
struct TemplateTable: Sendable {
    let registry: TemplateRegistry
    /// What the registry maps every kind to, by identity: two tables' heights are comparable
    /// only when it is the same.
    let identity: RegistryIdentity
    private(set) var templates: [CompiledTemplate] = []
    private var numbers: [ObjectIdentifier: Int32] = [:]
    private var numbersByKind: [String: Int32] = [:]
    private var last: (kind: String, number: Int32)?

    init(registry: TemplateRegistry) {
        self.registry = registry
        identity = RegistryIdentity(registry)
    }

    /// The number of the template for items of `kind` (-1 when none).
    mutating func number(forKind kind: String) -> Int32 {
        if let last, last.kind == kind { return last.number }
        let number: Int32
        if let known = numbersByKind[kind] {
            number = known
        } else if let template = registry.template(forKind: kind) ?? registry.fallback {
            let identifier = ObjectIdentifier(template)
            if let known = numbers[identifier] {
                number = known
            } else {
                number = Int32(templates.count)
                templates.append(template)
                numbers[identifier] = number
            }
            numbersByKind[kind] = number
        } else {
            number = -1
            numbersByKind[kind] = number
        }
        last = (kind, number)
        return number
    }
}

/// A registry by the identity of what it maps each kind to (and its fallback). The templates
/// are held, not only named, so that no other template takes an address while heights keyed by
/// it are kept.
struct RegistryIdentity: Sendable, Hashable {
    private let kinds: [String]
    private let templates: [CompiledTemplate?]

    init(_ registry: TemplateRegistry) {
        kinds = registry.kinds
        templates = kinds.map { registry.template(forKind: $0) } + [registry.fallback]
    }

    static func == (lhs: RegistryIdentity, rhs: RegistryIdentity) -> Bool {
        lhs.kinds == rhs.kinds && lhs.templates.count == rhs.templates.count && zip(lhs.templates, rhs.templates).allSatisfy { $0 === $1 }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(kinds)
        for template in templates { hasher.combine(template.map(ObjectIdentifier.init)) }
    }
}
