import { contractKind } from '../contracts.js';

export const insuranceContract = contractKind('insuranceContract');
