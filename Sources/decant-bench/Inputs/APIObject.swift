import Foundation

/// The 1 KB API object: a realistic order response (customer, address, items, totals), about 1,000 bytes of
/// compact UTF-8 JSON, the same in every run.
enum APIObject {
    /// The JSON text.
    static let text: String = """
        {"id":"ord_8f3a2c91d4e7","number":100482,"status":"shipped","currency":"EUR",\
        "createdAt":"2024-03-18T09:41:27Z","updatedAt":"2024-03-19T16:02:11Z",\
        "customer":{"id":73419,"email":"ines.moreau@example.com","firstName":"Inès","lastName":"Moreau",\
        "locale":"fr-FR","verified":true,"loyaltyPoints":1250},\
        "shippingAddress":{"line1":"14 rue des Lilas","line2":null,"city":"Lyon","postalCode":"69003",\
        "country":"FR","phone":"+33 4 78 00 12 34"},\
        "items":[{"sku":"TSH-BLU-M","name":"T-shirt bleu, coton bio","quantity":2,"unitPrice":19.9,\
        "discount":0,"tags":["apparel","organic"]},\
        {"sku":"MUG-CER-350","name":"Mug céramique 350 ml","quantity":1,"unitPrice":12.5,"discount":2.5,\
        "tags":["kitchen"]},\
        {"sku":"BAG-TOT-NAT","name":"Tote bag naturel","quantity":3,"unitPrice":8.75,"discount":0,\
        "tags":["accessories","organic","bestseller"]}],\
        "totals":{"subtotal":78.55,"discount":2.5,"shipping":4.9,"tax":15.39,"total":96.34},\
        "payment":{"method":"card","brand":"visa","last4":"4242","captured":true},\
        "shipment":{"carrier":"Colissimo","tracking":"6A19876543210","estimatedDelivery":"2024-03-21"},\
        "notes":"Merci de laisser le colis à l’accueil.","giftWrap":false,"couponCodes":["SPRING24"]}
        """

    /// The JSON bytes.
    static let data = Data(text.utf8)
}
