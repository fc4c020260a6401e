import { contractKind } from '../contracts.js';

export const contractArticleGroup = contractKind('contractArticleGroup');
