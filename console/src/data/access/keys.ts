export const accessKeys = {
  all: ['access'] as const,
  tokens: () => [...accessKeys.all, 'tokens'] as const,
  users: () => [...accessKeys.all, 'users'] as const,
  audit: () => [...accessKeys.all, 'audit'] as const,
};
