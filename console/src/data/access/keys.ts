export const accessKeys = {
  all: ['access'] as const,
  tokens: () => [...accessKeys.all, 'tokens'] as const,
  users: () => [...accessKeys.all, 'users'] as const,
  audit: (filters: object = {}) => [...accessKeys.all, 'audit', filters] as const,
};
