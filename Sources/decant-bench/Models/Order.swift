// The model of the 1 KB API object (see `APIObject`).

/// An order as an API returns it.
struct Order: Decodable, Equatable {
    var id: String
    var number: Int
    var status: String
    var currency: String
    var createdAt: String
    var updatedAt: String
    var customer: Customer
    var shippingAddress: Address
    var items: [Item]
    var totals: Totals
    var payment: Payment
    var shipment: Shipment
    var notes: String?
    var giftWrap: Bool
    var couponCodes: [String]

    /// The buyer.
    struct Customer: Decodable, Equatable {
        var id: Int
        var email: String
        var firstName: String
        var lastName: String
        var locale: String
        var verified: Bool
        var loyaltyPoints: Int
    }

    /// A postal address.
    struct Address: Decodable, Equatable {
        var line1: String
        var line2: String?
        var city: String
        var postalCode: String
        var country: String
        var phone: String?
    }

    /// A line of the order.
    struct Item: Decodable, Equatable {
        var sku: String
        var name: String
        var quantity: Int
        var unitPrice: Double
        var discount: Double
        var tags: [String]
    }

    /// Money totals.
    struct Totals: Decodable, Equatable {
        var subtotal: Double
        var discount: Double
        var shipping: Double
        var tax: Double
        var total: Double
    }

    /// How it was paid.
    struct Payment: Decodable, Equatable {
        var method: String
        var brand: String
        var last4: String
        var captured: Bool
    }

    /// How it travels.
    struct Shipment: Decodable, Equatable {
        var carrier: String
        var tracking: String
        var estimatedDelivery: String
    }
}
