/**
 * An ERP order message as the push-back tests send it: delivered in full, with one parcel.
 * Variant B's body schema marks every field required; A and C take them as well.
 */
export function erpOrderMessage(
  salesId: string,
  patientCustomerId: string,
  trackingCode = 'T-1',
): Record<string, unknown> {
  return {
    salesId,
    patientCustomerId,
    outboundDate: '2026-03-02T10:00:00.000Z',
    deliveryAddress: { name: 'Home', address: 'Weg 1', postalCode: '10115', city: 'Berlin' },
    erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 2, deliveredQuantity: 2 }],
    trackingInfo: [{ trackingCode }],
    annotation: '',
    prescriptionStatus: 'requested',
    trackingLink: '',
    therapyId: 3,
    completed: true,
  };
}
