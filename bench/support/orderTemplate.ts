/**
 * A created single order like the seed's, on the seed's patient, care arrangement and articles:
 * what the benchmarks create through the control API while the program under test runs.
 */
export async function orderTemplate(sim: { url: string }): Promise<Record<string, unknown>> {
  const query = 'status=created&updatedAfter=1970-01-01T00:00:00.000Z';
  // Another client's key: the program's own list stays untouched.
  const response = await fetch(`${sim.url}/singleOrder?${query}`, {
    headers: { 'service-api-key': 'demo-key-2' },
  });
  const [seeded] = (await response.json()) as Record<string, unknown>[];
  if (seeded === undefined) throw new Error('the simulator seed has no created single order');
  const { patientId, integratedCareId, orderedArticleLines } = seeded;
  return { status: 0, patientId, integratedCareId, orderedArticleLines };
}
